import { JsonObject, JsonValue, TemplateKey } from '@voiceplane/domain';
import {
  Automation,
  AutomationChanges,
  AutomationFilters,
  AutomationRepository,
  AutomationVersion,
  LastTest,
  NewVersion,
  Page,
  PageRequest,
  SecretCipher,
} from '@voiceplane/application';
import { Database } from '../../database';
import { AutomationRecord, AutomationVersionRecord } from '../../records';
import { Count, numOrNull } from '../rows';

const COLUMNS =
  'id, user_id, name, template_key, status, binding_type, assistant_id, bound, webhook_token, tool_id, live_version_id, last_test, created_at, updated_at';
const VERSION_COLUMNS =
  'id, automation_id, number, state, params, definition, restored_from_version_id, test_run_id, created_at, published_at';

type StoredLastTest = { run_id: string; run_status: LastTest['runStatus']; tested_at: string } | null;

/** A row as read; its `webhook_token` is still sealed (see `TypeormAutomationRepository.open`). */
/** COLUMNS and VERSION_COLUMNS are every column of their records: rows are whole `AutomationRecord`s and `AutomationVersionRecord`s. */
const toAutomation = (r: AutomationRecord): Automation => {
  const last = r.last_test as StoredLastTest;
  return {
    id: r.id,
    userId: Number(r.user_id),
    name: r.name,
    templateKey: r.template_key as TemplateKey,
    status: r.status as Automation['status'],
    bindingType: r.binding_type as Automation['bindingType'],
    assistantId: numOrNull(r.assistant_id),
    bound: r.bound,
    webhookToken: r.webhook_token,
    toolId: numOrNull(r.tool_id),
    liveVersionId: r.live_version_id,
    lastTest: last ? { runId: last.run_id, runStatus: last.run_status, testedAt: new Date(last.tested_at) } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
};

const toVersion = (r: AutomationVersionRecord): AutomationVersion => ({
  id: r.id,
  automationId: r.automation_id,
  number: r.number,
  state: r.state as AutomationVersion['state'],
  params: r.params as JsonObject,
  definition: r.definition as JsonValue,
  restoredFromVersionId: r.restored_from_version_id,
  testRunId: r.test_run_id,
  createdAt: r.created_at,
  publishedAt: r.published_at,
});

const storedLastTest = (t: LastTest | null): string | null =>
  t === null ? null : JSON.stringify({ run_id: t.runId, run_status: t.runStatus, tested_at: t.testedAt.toISOString() });

const CHANGE_COLUMNS: {
  readonly [K in keyof AutomationChanges]-?: {
    column: keyof AutomationRecord;
    write: (v: AutomationChanges[K]) => unknown;
    cast?: string;
  };
} = {
  name: { column: 'name', write: (v) => v },
  status: { column: 'status', write: (v) => v },
  bound: { column: 'bound', write: (v) => v },
  toolId: { column: 'tool_id', write: (v) => v },
  liveVersionId: { column: 'live_version_id', write: (v) => v },
  lastTest: { column: 'last_test', write: (v) => storedLastTest(v ?? null), cast: '::jsonb' },
};

/** Sealed tokens carry the cipher's version prefix; anything else is a token stored before they were sealed. */
const SEALED = /^v1\./;

/**
 * Automations and their versions. The webhook token is the credential of the hook URL and is
 * shown again in `webhook_url`, so it is sealed (AES-256-GCM under `SECRETS_KEY`, like SIP
 * passwords) rather than hashed; a token stored in clear before that still opens, and
 * `sealClearTokens` seals those at start.
 */
export class TypeormAutomationRepository implements AutomationRepository {
  constructor(
    private readonly db: Database,
    private readonly tokens: SecretCipher,
  ) {}

  private async open(row: AutomationRecord): Promise<Automation> {
    const automation = toAutomation(row);
    const stored = automation.webhookToken;
    return stored !== null && SEALED.test(stored)
      ? { ...automation, webhookToken: await this.tokens.decrypt(stored) }
      : automation;
  }

  private openAll(rows: AutomationRecord[]): Promise<Automation[]> {
    return Promise.all(rows.map((r) => this.open(r)));
  }

  /** Seals tokens stored in clear (before they were sealed); returns how many. Safe on several instances at once. */
  async sealClearTokens(): Promise<number> {
    const rows = await this.db.query<Pick<AutomationRecord, 'id' | 'webhook_token'>>(
      `SELECT id, webhook_token FROM automations WHERE webhook_token IS NOT NULL AND webhook_token NOT LIKE 'v1.%'`,
    );
    for (const r of rows) {
      await this.db.query(`UPDATE automations SET webhook_token = $2 WHERE id = $1 AND webhook_token = $3`, [
        r.id,
        await this.tokens.encrypt(r.webhook_token!),
        r.webhook_token,
      ]);
    }
    return rows.length;
  }

  async create(a: Automation, v: AutomationVersion): Promise<void> {
    const sealedToken = a.webhookToken === null ? null : await this.tokens.encrypt(a.webhookToken);
    return this.db.transaction(async () => {
      await this.db.query(
        `INSERT INTO automations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14)`,
        [
          a.id,
          a.userId,
          a.name,
          a.templateKey,
          a.status,
          a.bindingType,
          a.assistantId,
          a.bound,
          sealedToken,
          a.toolId,
          a.liveVersionId,
          storedLastTest(a.lastTest),
          a.createdAt,
          a.updatedAt,
        ],
      );
      await this.db.query(
        `INSERT INTO automation_versions (${VERSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10)`,
        [
          v.id,
          v.automationId,
          v.number,
          v.state,
          JSON.stringify(v.params),
          JSON.stringify(v.definition),
          v.restoredFromVersionId,
          v.testRunId,
          v.createdAt,
          v.publishedAt,
        ],
      );
    });
  }

  async find(userId: number, id: string): Promise<Automation | null> {
    const row = await this.db.one<AutomationRecord>(
      `SELECT ${COLUMNS} FROM automations WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row ? this.open(row) : null;
  }

  async findById(id: string): Promise<Automation | null> {
    const row = await this.db.one<AutomationRecord>(`SELECT ${COLUMNS} FROM automations WHERE id = $1`, [id]);
    return row ? this.open(row) : null;
  }

  async update(id: string, changes: AutomationChanges, at: Date): Promise<void> {
    const sql: string[] = [];
    const params: unknown[] = [id, at];
    for (const key of Object.keys(CHANGE_COLUMNS) as Array<keyof AutomationChanges>) {
      if (!(key in changes)) continue;
      const { column, write, cast } = CHANGE_COLUMNS[key] as {
        column: string;
        write: (v: unknown) => unknown;
        cast?: string;
      };
      params.push(write(changes[key]));
      sql.push(`${column} = $${params.length}${cast ?? ''}`);
    }
    await this.db.query(`UPDATE automations SET ${[...sql, 'updated_at = $2'].join(', ')} WHERE id = $1`, params);
  }

  async findVersion(id: string): Promise<AutomationVersion | null> {
    const row = await this.db.one<AutomationVersionRecord>(
      `SELECT ${VERSION_COLUMNS} FROM automation_versions WHERE id = $1`,
      [id],
    );
    return row ? toVersion(row) : null;
  }

  async publishVersion(id: string, testRunId: string | null, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE automation_versions SET state = 'published', published_at = $2, test_run_id = $3 WHERE id = $1`,
      [id, at, testRunId],
    );
  }

  async listBoundToAssistant(assistantId: number): Promise<Automation[]> {
    const rows = await this.db.query<AutomationRecord>(
      `SELECT ${COLUMNS} FROM automations WHERE assistant_id = $1 AND binding_type = 'assistant_event' AND status = 'enabled' AND bound ORDER BY created_at`,
      [assistantId],
    );
    return this.openAll(rows);
  }

  async findConflict(
    userId: number,
    assistantId: number,
    templateKey: TemplateKey,
    exceptId?: string,
  ): Promise<Automation | null> {
    const row = await this.db.one<AutomationRecord>(
      `SELECT ${COLUMNS} FROM automations WHERE user_id = $1 AND assistant_id = $2 AND template_key = $3 AND binding_type = 'assistant_event'
         AND status = 'enabled' AND bound AND id IS DISTINCT FROM $4 ORDER BY created_at LIMIT 1`,
      [userId, assistantId, templateKey, exceptId ?? null],
    );
    return row ? this.open(row) : null;
  }

  async list(userId: number, filters: AutomationFilters, page: PageRequest): Promise<Page<Automation>> {
    const where = ['user_id = $1'];
    const params: unknown[] = [userId];
    const filter = (column: string, value: unknown) => {
      if (value === undefined) return;
      params.push(value);
      where.push(`${column} = $${params.length}`);
    };
    filter('status', filters.status);
    filter('template_key', filters.templateKey);
    filter('assistant_id', filters.assistantId);
    const total = await this.db.one<Count>(
      `SELECT count(*) AS n FROM automations WHERE ${where.join(' AND ')}`,
      params,
    );
    const rows = await this.db.query<AutomationRecord>(
      `SELECT ${COLUMNS} FROM automations WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.perPage, (page.page - 1) * page.perPage],
    );
    return { items: await this.openAll(rows), total: Number(total?.n ?? 0) };
  }

  async listVersions(automationId: string): Promise<AutomationVersion[]> {
    const rows = await this.db.query<AutomationVersionRecord>(
      `SELECT ${VERSION_COLUMNS} FROM automation_versions WHERE automation_id = $1 ORDER BY number DESC`,
      [automationId],
    );
    return rows.map(toVersion);
  }

  addVersion(v: NewVersion): Promise<AutomationVersion> {
    return this.db.transaction(async () => {
      // The automation row serialises concurrent updates and restores of one automation.
      await this.db.one(`SELECT id FROM automations WHERE id = $1 FOR NO KEY UPDATE`, [v.automationId]);
      const rows = await this.db.query<AutomationVersionRecord>(
        `INSERT INTO automation_versions (${VERSION_COLUMNS})
         VALUES ($1, $2::varchar, (SELECT coalesce(max(number), 0) + 1 FROM automation_versions WHERE automation_id = $2::varchar), 'draft', $3::jsonb, $4::jsonb, $5, NULL, $6, NULL)
         RETURNING ${VERSION_COLUMNS}`,
        [
          v.id,
          v.automationId,
          JSON.stringify(v.params),
          JSON.stringify(v.definition),
          v.restoredFromVersionId,
          v.createdAt,
        ],
      );
      return toVersion(rows[0]);
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM automations WHERE id = $1`, [id]);
  }
}
