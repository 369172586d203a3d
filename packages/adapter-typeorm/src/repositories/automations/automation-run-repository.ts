import { AutomationRun, RunStatus } from '@voiceplane/domain';
import { AutomationRunRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { isUniqueViolation } from '../rows';

const DATE_FIELDS = ['startedAt', 'runningSince', 'resumeAt', 'finishedAt'] as const;

/** The run document: the domain's run with its dates as ISO text. */
function stored(run: AutomationRun): string {
  return JSON.stringify(run);
}

function revived(state: Record<string, unknown>): AutomationRun {
  const run: Record<string, unknown> = { ...state };
  for (const key of DATE_FIELDS) run[key] = state[key] === null || state[key] === undefined ? null : new Date(state[key] as string);
  // Runs stored before chains were counted are first attempts.
  if (typeof run.attempt !== 'number') run.attempt = 1;
  return run as unknown as AutomationRun;
}

export class TypeormAutomationRunRepository implements AutomationRunRepository {
  constructor(private readonly db: Database) {}

  async insert(automationId: string, run: AutomationRun, eventId?: string): Promise<boolean> {
    try {
      await this.db.query(
        `INSERT INTO automation_runs (id, automation_id, version_id, status, state, started_at, event_id) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
        [run.id, automationId, run.versionId, run.status, stored(run), run.startedAt, eventId ?? null],
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
    await this.db.query(`INSERT INTO automation_runs (id, automation_id, version_id, status, state, started_at) VALUES ${rows.join(', ')}`, params);
  }

  async save(automationId: string, run: AutomationRun): Promise<void> {
    await this.db.query(`UPDATE automation_runs SET status = $3, state = $4::jsonb WHERE id = $1 AND automation_id = $2`, [run.id, automationId, run.status, stored(run)]);
  }

  async saveIfStatus(automationId: string, run: AutomationRun, expected: RunStatus): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE automation_runs SET status = $3, state = $4::jsonb WHERE id = $1 AND automation_id = $2 AND status = $5 RETURNING id`,
      [run.id, automationId, run.status, stored(run), expected],
    );
    return rows.length > 0;
  }

  async find(automationId: string, runId: string): Promise<AutomationRun | null> {
    const row = await this.db.one<{ state: Record<string, unknown> }>(`SELECT state FROM automation_runs WHERE id = $1 AND automation_id = $2`, [runId, automationId]);
    return row ? revived(row.state) : null;
  }

  async list(automationId: string, limit: number): Promise<AutomationRun[]> {
    const rows = await this.db.query<{ state: Record<string, unknown> }>(
      `SELECT state FROM automation_runs WHERE automation_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2`,
      [automationId, limit],
    );
    return rows.map((r) => revived(r.state));
  }

  async findAnywhere(runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const row = await this.db.one<{ automation_id: string; state: Record<string, unknown> }>(`SELECT automation_id, state FROM automation_runs WHERE id = $1`, [runId]);
    return row ? { automationId: row.automation_id, run: revived(row.state) } : null;
  }

  async locate(userId: number, runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const row = await this.db.one<{ automation_id: string; state: Record<string, unknown> }>(
      `SELECT r.automation_id, r.state FROM automation_runs r JOIN automations a ON a.id = r.automation_id WHERE r.id = $1 AND a.user_id = $2`,
      [runId, userId],
    );
    return row ? { automationId: row.automation_id, run: revived(row.state) } : null;
  }
}
