import { Connection } from '@voiceplane/domain';
import { ConnectionFields, ConnectionRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { AutomationConnectionRecord } from '../../records';
import { num } from '../rows';

/** Every column of the record: the rows below are whole `AutomationConnectionRecord`s. */
const COLUMNS =
  'id, user_id, name, kind, base_url, notes_path, auth_type, auth_header_name, auth_value_sealed, status, last_checked_at, last_error, created_at, updated_at';

const FIELD_COLUMNS: { readonly [K in keyof ConnectionFields]-?: keyof AutomationConnectionRecord } = {
  name: 'name',
  kind: 'kind',
  baseUrl: 'base_url',
  notesPath: 'notes_path',
  authType: 'auth_type',
  authHeaderName: 'auth_header_name',
  sealedAuthValue: 'auth_value_sealed',
};

const toConnection = (r: AutomationConnectionRecord): Connection => ({
  id: num(r.id),
  userId: num(r.user_id),
  name: r.name,
  kind: r.kind as Connection['kind'],
  baseUrl: r.base_url,
  notesPath: r.notes_path,
  authType: r.auth_type as Connection['authType'],
  authHeaderName: r.auth_header_name,
  sealedAuthValue: r.auth_value_sealed,
  status: r.status as Connection['status'],
  lastCheckedAt: r.last_checked_at,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class TypeormConnectionRepository implements ConnectionRepository {
  constructor(private readonly db: Database) {}

  async create(userId: number, fields: ConnectionFields): Promise<Connection> {
    const keys = Object.keys(FIELD_COLUMNS) as Array<keyof ConnectionFields>;
    const rows = await this.db.query<AutomationConnectionRecord>(
      `INSERT INTO automation_connections (user_id, status, ${keys.map((k) => FIELD_COLUMNS[k]).join(', ')})
       VALUES ($1, 'connected', ${keys.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING ${COLUMNS}`,
      [userId, ...keys.map((k) => fields[k])],
    );
    return toConnection(rows[0]);
  }

  async find(userId: number, id: number): Promise<Connection | null> {
    const row = await this.db.one<AutomationConnectionRecord>(
      `SELECT ${COLUMNS} FROM automation_connections WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row ? toConnection(row) : null;
  }

  async list(userId: number): Promise<Connection[]> {
    return (
      await this.db.query<AutomationConnectionRecord>(
        `SELECT ${COLUMNS} FROM automation_connections WHERE user_id = $1 ORDER BY id DESC`,
        [userId],
      )
    ).map(toConnection);
  }

  async update(
    userId: number,
    id: number,
    changes: Partial<ConnectionFields>,
    reset: boolean,
  ): Promise<Connection | null> {
    const sql: string[] = [];
    const params: unknown[] = [userId, id];
    for (const key of Object.keys(FIELD_COLUMNS) as Array<keyof ConnectionFields>) {
      if (changes[key] === undefined) continue;
      params.push(changes[key]);
      sql.push(`${FIELD_COLUMNS[key]} = $${params.length}`);
    }
    if (reset) sql.push(`status = 'connected'`, 'last_error = NULL');
    const row = await this.db.one<AutomationConnectionRecord>(
      `UPDATE automation_connections SET ${[...sql, 'updated_at = now()'].join(', ')} WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      params,
    );
    return row ? toConnection(row) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (
      (
        await this.db.query<Pick<AutomationConnectionRecord, 'id'>>(
          `DELETE FROM automation_connections WHERE user_id = $1 AND id = $2 RETURNING id`,
          [userId, id],
        )
      ).length > 0
    );
  }

  async recordCheck(id: number, status: Connection['status'], error: string | null, at: Date): Promise<void> {
    await this.db.query(
      `UPDATE automation_connections SET status = $2, last_error = $3, last_checked_at = $4, updated_at = now() WHERE id = $1`,
      [id, status, error, at],
    );
  }
}
