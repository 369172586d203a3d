import { err, LedgerEntry, LedgerEntryType, LedgerReferenceType, ok, Result } from '@voiceplane/domain';
import {
  LedgerPosting,
  LedgerRepository,
  NewLedgerEntry,
  Page,
  PageRequest,
  PostingOptions,
  UserNotFound,
} from '@voiceplane/application';
import { Database } from '../database';
import { LedgerEntryRecord, UserRecord } from '../records';
import { num, pageClause } from './rows';

/** Every column of the record: the rows below are whole `LedgerEntryRecord`s. */
const COLUMNS =
  'id, user_id, type, amount, balance_after, description, reference_type, reference_id, request_id, created_at';

function toEntry(r: LedgerEntryRecord): LedgerEntry {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    type: r.type as LedgerEntryType,
    amount: num(r.amount),
    balanceAfter: num(r.balance_after),
    description: r.description,
    reference: r.reference_type ? { type: r.reference_type as LedgerReferenceType, id: num(r.reference_id) } : null,
    requestId: r.request_id,
    createdAt: r.created_at,
  };
}

/**
 * Raw SQL: a data-modifying CTE (balance update feeding the entry's insert), which TypeORM cannot
 * express. Built once: its text is the prepared statement's key (see Database.query).
 */
const APPEND = `WITH account AS (UPDATE users SET balance = $4, updated_at = now() WHERE id = $1 RETURNING id)
  INSERT INTO ledger_entries (user_id, type, amount, balance_after, description, reference_type, reference_id, request_id)
  SELECT account.id, $2, $3, $4, $5, $6, $7, $8 FROM account RETURNING id, amount, balance_after, created_at`;

/** Append-only: entries are never updated or deleted. The user's balance is the last entry's `balanceAfter`. */
export class TypeormLedgerRepository implements LedgerRepository {
  constructor(private readonly db: Database) {}

  post<E>(
    userId: number,
    decide: (balance: number) => Result<LedgerPosting, E>,
    options: PostingOptions = {},
  ): Promise<Result<LedgerEntry, E | UserNotFound>> {
    return this.db.transaction(
      async () => {
        let before = options.heldBalance;
        if (before === undefined) {
          // Raw SQL: a row lock serialises the balance changes of one account (NO KEY UPDATE: see `lockBalance`).
          const row = await this.db.one<Pick<UserRecord, 'balance'>>(
            `SELECT balance FROM users WHERE id = $1 FOR NO KEY UPDATE`,
            [userId],
            { prepared: true },
          );
          if (row === null) return err({ code: 'user_not_found' as const });
          before = num(row.balance);
        }
        const posting = decide(before);
        if (!posting.ok) return posting;
        const entry = await this.append({ ...posting.value, userId });
        if (entry === null) return err({ code: 'user_not_found' as const });
        if (options.followUp) await options.followUp(entry, before);
        return ok(entry);
      },
      { concludes: options.concludes ?? false },
    );
  }

  /** The new balance and the entry that carries it, in one statement; null when the user is gone. */
  private async append(e: NewLedgerEntry): Promise<LedgerEntry | null> {
    const description = e.description.slice(0, 255);
    const rows = await this.db.query<Pick<LedgerEntryRecord, 'id' | 'amount' | 'balance_after' | 'created_at'>>(
      APPEND,
      [
        e.userId,
        e.type,
        e.amount,
        e.balanceAfter,
        description,
        e.reference?.type ?? null,
        e.reference?.id ?? null,
        e.requestId,
      ],
      { prepared: true },
    );
    if (rows.length === 0) return null;
    // The rest of the entry is what was written; the amounts come back as the column stores them.
    const r = rows[0];
    return {
      id: num(r.id),
      userId: e.userId,
      type: e.type,
      amount: num(r.amount),
      balanceAfter: num(r.balance_after),
      description,
      reference: e.reference,
      requestId: e.requestId,
      createdAt: r.created_at,
    };
  }

  async list(userId: number, page: PageRequest, type?: LedgerEntryType): Promise<Page<LedgerEntry>> {
    const params: unknown[] = type ? [userId, type] : [userId];
    const where = type ? 'WHERE user_id = $1 AND type = $2' : 'WHERE user_id = $1';
    const limit = pageClause(page, params.length + 1);
    const [rows, count] = await Promise.all([
      this.db.query<LedgerEntryRecord>(`SELECT ${COLUMNS} FROM ledger_entries ${where} ORDER BY id DESC ${limit.sql}`, [
        ...params,
        ...limit.params,
      ]),
      this.db.one<{ n: string }>(`SELECT count(*) AS n FROM ledger_entries ${where}`, params),
    ]);
    return { items: rows.map(toEntry), total: num(count?.n) };
  }
}
