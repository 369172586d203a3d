import { StoredJob } from '@voiceplane/adapter-fakes';
import { PostgresJobStore } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { jobStoreContract } from './job-store.contract';

const database = useTestDatabase();

interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  run_at: Date;
  attempts: number;
  locked_until: Date | null;
  last_error: string | null;
  buried_at: Date | null;
}

jobStoreContract('PostgreSQL', async () => {
  await database().query('DELETE FROM scheduled_jobs');
  return {
    store: new PostgresJobStore(database()),
    jobs: async (): Promise<StoredJob[]> =>
      (await database().query<JobRow>('SELECT * FROM scheduled_jobs ORDER BY id')).map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        key: r.key,
        payload: r.payload,
        runAt: r.run_at,
        attempts: r.attempts,
        leasedUntil: r.locked_until,
        lastError: r.last_error,
        buriedAt: r.buried_at,
      })),
  };
});
