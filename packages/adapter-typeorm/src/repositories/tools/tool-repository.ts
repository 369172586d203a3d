import { Tool, ToolFields, ToolType } from '@voiceplane/domain';
import { Page, PageRequest, ToolRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { ToolRecord, UserRecord } from '../../records';
import { Count, num, pageClause } from '../rows';

/** Every column of the record: the rows below are whole `ToolRecord`s. */
const COLUMNS =
  'id, user_id, name, description, type, endpoint, method, body_format, timeout, headers, static_fields, schema, automation_id, created_at, updated_at';

/** Column of each user-settable field; the arrays are jsonb in the wire shape. */
const FIELD_COLUMNS: {
  readonly [K in keyof ToolFields]-?: { readonly column: keyof ToolRecord; readonly json?: true };
} = {
  name: { column: 'name' },
  description: { column: 'description' },
  endpoint: { column: 'endpoint' },
  method: { column: 'method' },
  bodyFormat: { column: 'body_format' },
  timeout: { column: 'timeout' },
  headers: { column: 'headers', json: true },
  staticFields: { column: 'static_fields', json: true },
  schema: { column: 'schema', json: true },
};

function toTool(r: ToolRecord): Tool {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    name: r.name,
    description: r.description,
    type: r.type as Tool['type'],
    endpoint: r.endpoint,
    method: r.method as Tool['method'],
    bodyFormat: r.body_format as Tool['bodyFormat'],
    timeout: r.timeout,
    headers: r.headers as Tool['headers'],
    staticFields: r.static_fields as Tool['staticFields'],
    schema: r.schema as Tool['schema'],
    automationId: r.automation_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function assignments(changes: Partial<ToolFields>, firstParam: number): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const key of Object.keys(FIELD_COLUMNS) as Array<keyof ToolFields>) {
    const value = changes[key];
    if (value === undefined) continue;
    const { column, json } = FIELD_COLUMNS[key];
    params.push(json ? JSON.stringify(value) : value);
    sql.push(`${column} = $${firstParam + params.length - 1}${json ? '::jsonb' : ''}`);
  }
  return { sql, params };
}

export class TypeormToolRepository implements ToolRepository {
  constructor(private readonly db: Database) {}

  createWithinLimit(userId: number, fields: ToolFields, limit: number): Promise<Tool | null> {
    return this.db.transaction(async () => {
      // The account row serialises concurrent creates, so two requests cannot both take the last slot.
      const owner = await this.db.one<Pick<UserRecord, 'id'>>(`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [
        userId,
      ]);
      if (owner === null) return null;
      const count = await this.db.one<Count>(`SELECT count(*) AS n FROM tools WHERE user_id = $1`, [userId]);
      if (num(count?.n) >= limit) return null;
      const keys = Object.keys(FIELD_COLUMNS) as Array<keyof ToolFields>;
      const columns = keys.map((k) => FIELD_COLUMNS[k].column);
      const values = keys.map((k, i) => `$${i + 2}${FIELD_COLUMNS[k].json ? '::jsonb' : ''}`);
      const params = keys.map((k) => (FIELD_COLUMNS[k].json ? JSON.stringify(fields[k]) : fields[k]));
      const row = await this.db.one<ToolRecord>(
        `INSERT INTO tools (user_id, type, ${columns.join(', ')}) VALUES ($1, 'http', ${values.join(', ')}) RETURNING ${COLUMNS}`,
        [userId, ...params],
      );
      return toTool(row!);
    });
  }

  async findForUser(userId: number, id: number): Promise<Tool | null> {
    const row = await this.db.one<ToolRecord>(`SELECT ${COLUMNS} FROM tools WHERE user_id = $1 AND id = $2`, [
      userId,
      id,
    ]);
    return row ? toTool(row) : null;
  }

  async find(id: number): Promise<Tool | null> {
    const row = await this.db.one<ToolRecord>(`SELECT ${COLUMNS} FROM tools WHERE id = $1`, [id]);
    return row ? toTool(row) : null;
  }

  async list(userId: number, page: PageRequest, type?: ToolType): Promise<Page<Tool>> {
    const params: unknown[] = type ? [userId, type] : [userId];
    const where = type ? 'WHERE user_id = $1 AND type = $2' : 'WHERE user_id = $1';
    const limit = pageClause(page, params.length + 1);
    const [rows, count] = await Promise.all([
      this.db.query<ToolRecord>(`SELECT ${COLUMNS} FROM tools ${where} ORDER BY id DESC ${limit.sql}`, [
        ...params,
        ...limit.params,
      ]),
      this.db.one<Count>(`SELECT count(*) AS n FROM tools ${where}`, params),
    ]);
    return { items: rows.map(toTool), total: num(count?.n) };
  }

  async listByIds(userId: number, ids: readonly number[]): Promise<Tool[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<ToolRecord>(
      `SELECT ${COLUMNS} FROM tools WHERE user_id = $1 AND id = ANY($2::bigint[])`,
      [userId, ids],
    );
    const byId = new Map(rows.map((r) => [num(r.id), toTool(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async update(userId: number, id: number, changes: Partial<ToolFields>): Promise<Tool | null> {
    const set = assignments(changes, 3);
    const row = await this.db.one<ToolRecord>(
      `UPDATE tools SET ${[...set.sql, 'updated_at = now()'].join(', ')} WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [userId, id, ...set.params],
    );
    return row ? toTool(row) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    // Attachments (assistant_tools) go with the tool by their foreign key's ON DELETE CASCADE.
    const rows = await this.db.query<Pick<ToolRecord, 'id'>>(
      `DELETE FROM tools WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  }
}
