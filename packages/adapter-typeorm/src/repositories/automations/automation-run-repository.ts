import { AutomationRun, RunStatus } from '@voiceplane/domain';
import { AutomationRunRepository, RunLease } from '@voiceplane/application';
import { Database } from '../../database';
import { AutomationRunRecord } from '../../records';
import { isUniqueViolation } from '../rows';

const DATE_FIELDS = ['startedAt', 'runningSince', 'resumeAt', 'retryAt', 'finishedAt'] as const;

/** The run document: the domain's run with its dates as ISO text. */
function stored(run: AutomationRun): string {
  return JSON.stringify(run);
}

type DateField = (typeof DATE_FIELDS)[number];
/** The `state` column as `stored` wrote it; runs stored before chains were counted lack `attempt` (first attempts). */
type StoredRun = Omit<AutomationRun, DateField | 'attempt'> & { readonly [K in DateField]?: string | null } & {
  readonly attempt?: number;
};
/** The columns the reads below select. */
type RunRow = Pick<AutomationRunRecord, 'automation_id' | 'state'>;

function revived(state: AutomationRunRecord['state']): AutomationRun {
  const doc = state as StoredRun;
  const date = (key: DateField) => {
    const v = doc[key];
    return v === null || v === undefined ? null : new Date(v);
  };
  return {
    ...doc,
    attempt: typeof doc.attempt === 'number' ? doc.attempt : 1,
    startedAt: date('startedAt')!,
    runningSince: date('runningSince'),
    resumeAt: date('resumeAt'),
    retryAt: date('retryAt'),
    finishedAt: date('finishedAt'),
  };
}

export class TypeormAutomationRunRepository implements AutomationRunRepository {
  constructor(private readonly db: Database) {}

  async insert(automationId: string, run: AutomationRun, eventId?: string, lease?: RunLease): Promise<boolean> {
    try {
      await this.db.query(
        `INSERT INTO automation_runs (id, automation_id, version_id, status, state, started_at, event_id, lease_owner, lease_until)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`,
        [
          run.id,
          automationId,
          run.versionId,
          run.status,
          stored(run),
          run.startedAt,
          eventId ?? null,
          lease?.owner ?? null,
          lease?.until ?? null,
        ],
      );
      return true;
    } catch (e) {
      if (eventId !== undefined && isUniqueViolation(e)) return false;
      throw e;
    }
  }

  async insertMany(entries: readonly { readonly automationId: string; readonly run: AutomationRun }[]): Promise<void> {
    if (entries.length === 0) return;
    const params: unknown[] = [];
    const rows = entries.map(({ automationId, run }) => {
      params.push(run.id, automationId, run.versionId, run.status, stored(run), run.startedAt);
      const n = params.length;
      return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}::jsonb, $${n})`;
    });
    await this.db.query(
      `INSERT INTO automation_runs (id, automation_id, version_id, status, state, started_at) VALUES ${rows.join(', ')}`,
      params,
    );
  }

  async save(automationId: string, run: AutomationRun): Promise<void> {
    await this.db.query(
      `UPDATE automation_runs SET status = $3, state = $4::jsonb, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND automation_id = $2`,
      [run.id, automationId, run.status, stored(run)],
    );
  }

  async saveIfStatus(
    automationId: string,
    run: AutomationRun,
    expected: RunStatus,
    lease?: RunLease,
  ): Promise<boolean> {
    const rows = await this.db.query<Pick<AutomationRunRecord, 'id'>>(
      `UPDATE automation_runs SET status = $3, state = $4::jsonb, lease_owner = $6, lease_until = $7
        WHERE id = $1 AND automation_id = $2 AND status = $5 RETURNING id`,
      [run.id, automationId, run.status, stored(run), expected, lease?.owner ?? null, lease?.until ?? null],
    );
    return rows.length > 0;
  }

  async saveHeld(automationId: string, run: AutomationRun, owner: string, next: RunLease | null): Promise<boolean> {
    const rows = await this.db.query<Pick<AutomationRunRecord, 'id'>>(
      `UPDATE automation_runs SET status = $3, state = $4::jsonb, lease_owner = $6, lease_until = $7
        WHERE id = $1 AND automation_id = $2 AND lease_owner = $5 RETURNING id`,
      [run.id, automationId, run.status, stored(run), owner, next?.owner ?? null, next?.until ?? null],
    );
    return rows.length > 0;
  }

  async heartbeat(owner: string, runIds: readonly string[], until: Date): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.query(
      `UPDATE automation_runs SET lease_until = $3 WHERE id = ANY($2::varchar[]) AND lease_owner = $1`,
      [owner, runIds, until],
    );
  }

  async claim(
    automationId: string,
    runId: string,
    owner: string,
    now: Date,
    until: Date,
  ): Promise<AutomationRun | null> {
    const row = await this.db.one<Pick<AutomationRunRecord, 'state'>>(
      `UPDATE automation_runs SET lease_owner = $3, lease_until = $5
        WHERE id = $1 AND automation_id = $2 AND status = 'RUNNING' AND lease_until <= $4 RETURNING state`,
      [runId, automationId, owner, now, until],
    );
    return row ? revived(row.state) : null;
  }

  async claimLapsed(
    owner: string,
    now: Date,
    until: Date,
    limit: number,
  ): Promise<{ automationId: string; run: AutomationRun }[]> {
    // SKIP LOCKED: sweepers racing each other take disjoint runs; the lease condition is checked again on the locked row.
    const rows = await this.db.query<RunRow>(
      `UPDATE automation_runs SET lease_owner = $1, lease_until = $3
        WHERE id IN (SELECT id FROM automation_runs WHERE status = 'RUNNING' AND lease_until < $2 ORDER BY lease_until LIMIT $4 FOR UPDATE SKIP LOCKED)
          AND status = 'RUNNING' AND lease_until < $2
        RETURNING automation_id, state`,
      [owner, now, until, limit],
    );
    return rows.map((r) => ({ automationId: r.automation_id, run: revived(r.state) }));
  }

  async find(automationId: string, runId: string): Promise<AutomationRun | null> {
    const row = await this.db.one<Pick<AutomationRunRecord, 'state'>>(
      `SELECT state FROM automation_runs WHERE id = $1 AND automation_id = $2`,
      [runId, automationId],
    );
    return row ? revived(row.state) : null;
  }

  async list(automationId: string, limit: number): Promise<AutomationRun[]> {
    const rows = await this.db.query<Pick<AutomationRunRecord, 'state'>>(
      `SELECT state FROM automation_runs WHERE automation_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`,
      [automationId, limit],
    );
    return rows.map((r) => revived(r.state));
  }

  async findAnywhere(runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const row = await this.db.one<RunRow>(`SELECT automation_id, state FROM automation_runs WHERE id = $1`, [runId]);
    return row ? { automationId: row.automation_id, run: revived(row.state) } : null;
  }

  async locate(userId: number, runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const row = await this.db.one<RunRow>(
      `SELECT r.automation_id, r.state FROM automation_runs r JOIN automations a ON a.id = r.automation_id WHERE r.id = $1 AND a.user_id = $2`,
      [runId, userId],
    );
    return row ? { automationId: row.automation_id, run: revived(row.state) } : null;
  }
}
