import {
  PostgresJobStore,
  TypeormSigningSecretRepository,
  TypeormWebhookDeliveryRepository,
} from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';
import { insertUser, outboxEvents, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

webhookDeliveryRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM webhook_deliveries');
  await db.query('DELETE FROM outbox_events');
  await db.query('DELETE FROM scheduled_jobs');
  return {
    deliveries: new TypeormWebhookDeliveryRepository(
      db,
      outboxOf(db, { now: () => new Date() }),
      new PostgresJobStore(db),
    ),
    secrets: new TypeormSigningSecretRepository(db),
    uow: db,
    users: [await insertUser(db), await insertUser(db)],
    events: () => outboxEvents(db),
    jobs: async () =>
      (
        await db.query<{ kind: string; key: string | null; payload: unknown; run_at: Date }>(
          'SELECT kind, key, payload, run_at FROM scheduled_jobs ORDER BY id',
        )
      ).map((r) => ({ kind: r.kind, key: r.key, payload: r.payload, runAt: new Date(r.run_at) })),
  };
});
