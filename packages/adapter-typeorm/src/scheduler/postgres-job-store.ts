import { ClaimedJob, JobQueue, JobScheduler, NewJob } from '@voiceplane/application';
import { Database } from '../database';
import type { CommitNotifier } from '../outbox/outbox-notifier';

interface JobRow {
  id: string;
  kind: string;
  key: string | null;
  payload: unknown;
  attempts: number;
  lease_token: string;
}

/**
 * The scheduler's table. Jobs are claimed with FOR UPDATE SKIP LOCKED and held by a lease
 * (`locked_until` + `lease_token`), not by an open transaction, so a job may run for seconds
 * without pinning a connection, and a runner that dies loses its jobs when the lease runs out.
 * Home-made rather than pg-boss or graphile-worker: it must run on embedded PGlite too, where neither does.
 */
export class PostgresJobStore implements JobScheduler, JobQueue {
  constructor(
    private readonly db: Database,
    /** Without one, runners find jobs due later than they expect by their safety poll. */
    private readonly notifier?: CommitNotifier,
  ) {}

  async schedule(job: NewJob): Promise<void> {
    await this.insert(job);
    // The runners sleep until the earliest job they know of: this one may be due sooner.
    if (this.notifier) this.db.afterCommit(() => this.notifier!.notify());
  }

  private async insert(job: NewJob): Promise<void> {
    const payload = JSON.stringify(job.payload ?? null);
    if (job.key === undefined) {
      await this.db.query(`INSERT INTO scheduled_jobs (kind, payload, run_at) VALUES ($1, $2, $3)`, [
        job.kind,
        payload,
        job.runAt,
      ]);
      return;
    }
    // Re-scheduling a key releases any claim on it: the holder's complete/retry then no longer
    // matches its lease token and leaves the new schedule alone.
    // Raw SQL: a keyed upsert that also drops any lease, in one statement, so instances re-scheduling together cannot race.
    await this.db.query(
      `INSERT INTO scheduled_jobs (kind, key, payload, run_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET kind = EXCLUDED.kind, payload = EXCLUDED.payload, run_at = EXCLUDED.run_at,
         attempts = 0, locked_until = NULL, lease_token = NULL, last_error = NULL, buried_at = NULL`,
      [job.kind, job.key, payload, job.runAt],
    );
  }

  async cancel(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.query(`DELETE FROM scheduled_jobs WHERE key = ANY($1)`, [keys]);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedJob[]> {
    // Raw SQL: a SKIP LOCKED claim and its lease in one statement, so runners never take the same job.
    const rows = await this.db.query<JobRow>(
      `WITH due AS (
         SELECT id FROM scheduled_jobs
          WHERE buried_at IS NULL AND run_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
          ORDER BY run_at LIMIT $2 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE scheduled_jobs j SET locked_until = $3, lease_token = $4, attempts = j.attempts + 1
           FROM due WHERE j.id = due.id
         RETURNING j.id, j.kind, j.key, j.payload, j.attempts, j.lease_token, j.run_at
       )
       SELECT * FROM claimed ORDER BY run_at`,
      [now, limit, leaseUntil, leaseToken],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      key: r.key,
      payload: r.payload,
      attempts: r.attempts,
      leaseToken: r.lease_token,
    }));
  }

  async nextDueAt(): Promise<Date | null> {
    // Two index-friendly halves: unheld jobs by the due index; held ones (the few in flight) by
    // when their lease runs out, or later if they were re-timed while held.
    const [row] = await this.db.query<{ next: Date | null }>(
      `SELECT LEAST(
         (SELECT min(run_at) FROM scheduled_jobs WHERE buried_at IS NULL AND locked_until IS NULL),
         (SELECT min(GREATEST(run_at, locked_until)) FROM scheduled_jobs WHERE buried_at IS NULL AND locked_until IS NOT NULL)
       ) AS next`,
    );
    return row?.next ? new Date(row.next) : null;
  }

  async complete(job: ClaimedJob): Promise<void> {
    // Raw SQL: conditional on the lease token, so a runner whose lease was taken over changes nothing.
    await this.db.query(`DELETE FROM scheduled_jobs WHERE id = $1 AND lease_token = $2`, [job.id, job.leaseToken]);
  }

  async retry(job: ClaimedJob, runAt: Date, error: string): Promise<void> {
    // Raw SQL: conditional on the lease token (see complete).
    await this.db.query(
      `UPDATE scheduled_jobs SET run_at = $3, locked_until = NULL, lease_token = NULL, last_error = $4 WHERE id = $1 AND lease_token = $2`,
      [job.id, job.leaseToken, runAt, error.slice(0, 2_000)],
    );
  }

  async bury(job: ClaimedJob, at: Date, error: string): Promise<void> {
    // Raw SQL: conditional on the lease token (see complete).
    await this.db.query(
      `UPDATE scheduled_jobs SET buried_at = $3, locked_until = NULL, lease_token = NULL, last_error = $4 WHERE id = $1 AND lease_token = $2`,
      [job.id, job.leaseToken, at, error.slice(0, 2_000)],
    );
  }
}
