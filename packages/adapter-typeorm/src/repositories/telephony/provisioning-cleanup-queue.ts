import { CleanupAction, CleanupTask, NewCleanupTask, ProvisioningCleanupQueue } from '@voiceplane/application';
import { Database } from '../../database';
import { SipProvisioningCleanupRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = 'id, action, resource_id, target_trunk_id, release_trunk_ids, wait_for_calls, attempts, created_at';

type TaskRow = Omit<SipProvisioningCleanupRecord, 'last_error' | 'next_attempt_at'>;

function toTask(r: TaskRow): CleanupTask {
  return {
    id: num(r.id),
    action: r.action as CleanupAction,
    resourceId: r.resource_id,
    targetTrunkId: r.target_trunk_id,
    releaseTrunkIds: r.release_trunk_ids,
    waitForCalls: r.wait_for_calls,
    attempts: r.attempts,
    createdAt: r.created_at,
  };
}

/** Claims are leases on `next_attempt_at`: a worker that dies simply lets the lease run out. */
export class TypeormProvisioningCleanupQueue implements ProvisioningCleanupQueue {
  constructor(private readonly db: Database) {}

  async add(tasks: readonly NewCleanupTask[], dueAt: Date, now: Date): Promise<CleanupTask[]> {
    const out: CleanupTask[] = [];
    for (const t of tasks) {
      const rows = await this.db.query<TaskRow>(
        `INSERT INTO sip_provisioning_cleanup (action, resource_id, target_trunk_id, release_trunk_ids, wait_for_calls, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [
          t.action,
          t.resourceId,
          t.targetTrunkId ?? null,
          JSON.stringify(t.releaseTrunkIds ?? []),
          t.waitForCalls ?? false,
          dueAt,
          now,
        ],
      );
      out.push(toTask(rows[0]));
    }
    return out;
  }

  async addDeleteIntent(resourceId: string, dueAt: Date, now: Date): Promise<CleanupTask | null> {
    const rows = await this.db.query<TaskRow>(
      `INSERT INTO sip_provisioning_cleanup (action, resource_id, release_trunk_ids, next_attempt_at, created_at)
       VALUES ('delete_number', $1, '[]', $2, $3)
       ON CONFLICT (resource_id) WHERE action = 'delete_number' DO NOTHING RETURNING ${COLUMNS}`,
      [resourceId, dueAt, now],
    );
    return rows.length > 0 ? toTask(rows[0]) : null;
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<CleanupTask[]> {
    // Raw SQL: a SKIP LOCKED claim that moves the lease in the same statement, so workers never take the same task.
    const rows = await this.db.query<TaskRow>(
      `WITH due AS (
         SELECT id FROM sip_provisioning_cleanup WHERE next_attempt_at <= $1 ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
       , claimed AS (
         UPDATE sip_provisioning_cleanup c SET next_attempt_at = $2 FROM due WHERE c.id = due.id RETURNING c.*)
       SELECT ${COLUMNS} FROM claimed ORDER BY id`,
      [now, leaseUntil, limit],
    );
    return rows.map(toTask);
  }

  async complete(id: number): Promise<void> {
    await this.db.query(`DELETE FROM sip_provisioning_cleanup WHERE id = $1`, [id]);
  }

  async retryAt(id: number, at: Date, error: string): Promise<void> {
    // Raw SQL: the counter is incremented in the database, not read and written back.
    await this.db.query(
      `UPDATE sip_provisioning_cleanup SET attempts = attempts + 1, next_attempt_at = $2, last_error = $3 WHERE id = $1`,
      [id, at, error.slice(0, 500)],
    );
  }

  async pending(): Promise<CleanupTask[]> {
    return (await this.db.query<TaskRow>(`SELECT ${COLUMNS} FROM sip_provisioning_cleanup ORDER BY id`)).map(toTask);
  }
}
