import { DoNotCallEntry, DoNotCallList, NewDoNotCallEntry } from '@voiceplane/application';
import { Database } from '../../database';
import type { DoNotCallRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = 'id, user_id, phone_number, reason, created_at';

const toEntry = (r: DoNotCallRecord): DoNotCallEntry => ({
  id: num(r.id),
  userId: num(r.user_id),
  phoneNumber: r.phone_number,
  reason: r.reason,
  createdAt: new Date(r.created_at),
});

/** The do-not-call list on PostgreSQL; lookups go through the unique (user_id, phone_number) index. */
export class TypeormDoNotCallList implements DoNotCallList {
  constructor(private readonly db: Database) {}

  async add(userId: number, entries: readonly NewDoNotCallEntry[], now: Date): Promise<number> {
    if (entries.length === 0) return 0;
    // One statement for the whole batch; a number listed meanwhile by another request is left as it is.
    const rows = await this.db.query<Pick<DoNotCallRecord, 'id'>>(
      `INSERT INTO do_not_call_numbers (user_id, phone_number, reason, created_at)
       SELECT $1, e.phone_number, e.reason, $2
         FROM unnest($3::varchar[], $4::varchar[]) WITH ORDINALITY AS e(phone_number, reason, o)
        ORDER BY e.o
       ON CONFLICT (user_id, phone_number) DO NOTHING RETURNING id`,
      [userId, now, entries.map((e) => e.phoneNumber), entries.map((e) => e.reason)],
    );
    return rows.length;
  }

  async count(userId: number): Promise<number> {
    const row = await this.db.one<{ n: string }>(`SELECT count(*) AS n FROM do_not_call_numbers WHERE user_id = $1`, [
      userId,
    ]);
    return num(row?.n);
  }

  async list(
    userId: number,
    filter: { readonly phoneNumber?: string },
    before: number | null,
    limit: number,
  ): Promise<DoNotCallEntry[]> {
    const rows = await this.db.query<DoNotCallRecord>(
      `SELECT ${COLUMNS} FROM do_not_call_numbers
        WHERE user_id = $1 AND ($2::varchar IS NULL OR phone_number = $2) AND ($3::bigint IS NULL OR id < $3)
        ORDER BY id DESC LIMIT $4`,
      [userId, filter.phoneNumber ?? null, before, limit],
    );
    return rows.map(toEntry);
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query<Pick<DoNotCallRecord, 'id'>>(
      `DELETE FROM do_not_call_numbers WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length > 0;
  }

  async listed(userId: number, phoneNumbers: readonly string[]): Promise<Set<string>> {
    if (phoneNumbers.length === 0) return new Set();
    const rows = await this.db.query<Pick<DoNotCallRecord, 'phone_number'>>(
      `SELECT phone_number FROM do_not_call_numbers WHERE user_id = $1 AND phone_number = ANY($2::varchar[])`,
      [userId, [...new Set(phoneNumbers)]],
    );
    return new Set(rows.map((r) => r.phone_number));
  }
}
