import {
  BillingProvider,
  LOST_ANSWER_REASON,
  TopUp,
  TopUpStatus,
  TopUpTrigger,
  TOP_UP_CURRENCY,
} from '@voiceplane/domain';
import { Page, PageRequest, ReconcilableTopUp, TopUpRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { TopUpRecord } from '../../records';
import { Count, num, pageClause } from '../rows';

const COLUMNS =
  'id, user_id, amount, status, trigger, checkout_url, provider, failure_reason, created_at, completed_at';

/** The columns of COLUMNS. */
type TopUpRow = Pick<
  TopUpRecord,
  | 'id'
  | 'user_id'
  | 'amount'
  | 'status'
  | 'trigger'
  | 'checkout_url'
  | 'provider'
  | 'failure_reason'
  | 'created_at'
  | 'completed_at'
>;
/** COLUMNS plus RECONCILE_COLUMNS. */
type ReconcilableRow = TopUpRow & Pick<TopUpRecord, 'provider_reference' | 'unreconcilable' | 'reconcile_checked_at'>;
const RECONCILE_COLUMNS = 'provider_reference, unreconcilable, reconcile_checked_at';

function toTopUp(r: TopUpRow): TopUp {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    amount: num(r.amount),
    currency: TOP_UP_CURRENCY,
    status: r.status as TopUpStatus,
    trigger: r.trigger as TopUpTrigger,
    checkoutUrl: r.checkout_url,
    provider: r.provider as BillingProvider,
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  };
}

function toReconcilable(r: ReconcilableRow): ReconcilableTopUp {
  return {
    topUp: toTopUp(r),
    providerReference: r.provider_reference,
    unreconcilable: r.unreconcilable,
    checkedAt: r.reconcile_checked_at,
  };
}

export class TypeormTopUpRepository implements TopUpRepository {
  constructor(private readonly db: Database) {}

  async reserveId(): Promise<number> {
    const row = await this.db.one<Pick<TopUpRecord, 'id'>>(
      `SELECT nextval(pg_get_serial_sequence('top_ups', 'id')) AS id`,
    );
    return num(row?.id);
  }

  async insert(t: TopUp, providerReference: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO top_ups (id, user_id, amount, currency, status, trigger, checkout_url, provider, provider_reference, failure_reason, created_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        t.id,
        t.userId,
        t.amount,
        t.currency,
        t.status,
        t.trigger,
        t.checkoutUrl,
        t.provider,
        providerReference,
        t.failureReason,
        t.createdAt,
        t.completedAt,
      ],
    );
  }

  async find(userId: number, id: number): Promise<TopUp | null> {
    const r = await this.db.one<TopUpRow>(`SELECT ${COLUMNS} FROM top_ups WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return r ? toTopUp(r) : null;
  }

  async findByProviderReference(provider: BillingProvider, providerReference: string): Promise<TopUp | null> {
    const r = await this.db.one<TopUpRow>(
      `SELECT ${COLUMNS} FROM top_ups WHERE provider = $1 AND provider_reference = $2`,
      [provider, providerReference],
    );
    return r ? toTopUp(r) : null;
  }

  async list(userId: number, page: PageRequest, status?: TopUpStatus): Promise<Page<TopUp>> {
    const params: unknown[] = status ? [userId, status] : [userId];
    const where = status ? 'WHERE user_id = $1 AND status = $2' : 'WHERE user_id = $1';
    const limit = pageClause(page, params.length + 1);
    const [rows, count] = await Promise.all([
      this.db.query<TopUpRow>(`SELECT ${COLUMNS} FROM top_ups ${where} ORDER BY id DESC ${limit.sql}`, [
        ...params,
        ...limit.params,
      ]),
      this.db.one<Count>(`SELECT count(*) AS n FROM top_ups ${where}`, params),
    ]);
    return { items: rows.map(toTopUp), total: num(count?.n) };
  }

  async lock(id: number): Promise<TopUp | null> {
    // Raw SQL: the row lock serialises every settlement of one top-up.
    const r = await this.db.one<TopUpRow>(`SELECT ${COLUMNS} FROM top_ups WHERE id = $1 FOR UPDATE`, [id]);
    return r ? toTopUp(r) : null;
  }

  async saveSettled(t: TopUp): Promise<void> {
    await this.db.query(`UPDATE top_ups SET status = $2, failure_reason = $3, completed_at = $4 WHERE id = $1`, [
      t.id,
      t.status,
      t.failureReason,
      t.completedAt,
    ]);
  }

  async awaitingReconciliation(pendingBefore: Date, checkedBefore: Date, limit: number): Promise<ReconcilableTopUp[]> {
    const rows = await this.db.query<ReconcilableRow>(
      `SELECT ${COLUMNS}, ${RECONCILE_COLUMNS} FROM top_ups
        WHERE status IN ('pending', 'failed') AND unreconcilable IS NULL AND (reconcile_checked_at IS NULL OR reconcile_checked_at <= $2)
          AND ((status = 'pending' AND created_at <= $1) OR (status = 'failed' AND trigger = 'auto' AND failure_reason = $4))
        ORDER BY id LIMIT $3`,
      [pendingBefore, checkedBefore, limit, LOST_ANSWER_REASON],
    );
    return rows.map(toReconcilable);
  }

  async markChecked(id: number, at: Date, unreconcilable: string | null): Promise<void> {
    await this.db.query(`UPDATE top_ups SET reconcile_checked_at = $2, unreconcilable = $3 WHERE id = $1`, [
      id,
      at,
      unreconcilable,
    ]);
  }

  async listUnreconcilable(): Promise<ReconcilableTopUp[]> {
    const rows = await this.db.query<ReconcilableRow>(
      `SELECT ${COLUMNS}, ${RECONCILE_COLUMNS} FROM top_ups WHERE unreconcilable IS NOT NULL ORDER BY id`,
    );
    return rows.map(toReconcilable);
  }

  async setProviderReference(id: number, providerReference: string): Promise<void> {
    await this.db.query(`UPDATE top_ups SET provider_reference = $2 WHERE id = $1`, [
      id,
      providerReference.slice(0, 255),
    ]);
  }
}
