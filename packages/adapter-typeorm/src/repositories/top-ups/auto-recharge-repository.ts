import { AutoRecharge, newAutoRecharge } from '@voiceplane/domain';
import { AutoRechargeRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { AutoRechargeRecord } from '../../records';
import { num, numOrNull } from '../rows';

const COLUMNS =
  'user_id, enabled, threshold, amount, consecutive_failures, last_attempt_at, last_error, in_flight_top_up_id';
/** Built once: read in every charge's transaction, as a prepared statement keyed by its text (see Database.query). */
const FIND = `SELECT ${COLUMNS} FROM auto_recharges WHERE user_id = $1`;

type RechargeRow = Omit<AutoRechargeRecord, 'updated_at'>;

function toRecharge(r: RechargeRow): AutoRecharge {
  return {
    userId: num(r.user_id),
    settings: { enabled: r.enabled, threshold: num(r.threshold), amount: num(r.amount) },
    state: {
      consecutiveFailures: r.consecutive_failures,
      lastAttemptAt: r.last_attempt_at,
      lastError: r.last_error,
      inFlightTopUpId: numOrNull(r.in_flight_top_up_id),
    },
  };
}

/** One row per account that ever changed its auto-recharge; the domain's defaults stand for the others. */
export class TypeormAutoRechargeRepository implements AutoRechargeRepository {
  constructor(private readonly db: Database) {}

  async find(userId: number): Promise<AutoRecharge> {
    const r = await this.db.one<RechargeRow>(FIND, [userId], { prepared: true });
    return r ? toRecharge(r) : newAutoRecharge(userId);
  }

  async lock(userId: number): Promise<AutoRecharge> {
    // No row is written here: a refused change must leave none behind. An account without a row
    // has auto-recharge off, so nothing is in flight to protect until its first save (an upsert).
    const r = await this.db.one<RechargeRow>(`SELECT ${COLUMNS} FROM auto_recharges WHERE user_id = $1 FOR UPDATE`, [
      userId,
    ]);
    return r ? toRecharge(r) : newAutoRecharge(userId);
  }

  async save(a: AutoRecharge, at: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO auto_recharges (${COLUMNS}, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (user_id) DO UPDATE SET enabled = $2, threshold = $3, amount = $4, consecutive_failures = $5, last_attempt_at = $6,
         last_error = $7, in_flight_top_up_id = $8, updated_at = $9`,
      [
        a.userId,
        a.settings.enabled,
        a.settings.threshold,
        a.settings.amount,
        a.state.consecutiveFailures,
        a.state.lastAttemptAt,
        a.state.lastError?.slice(0, 255) ?? null,
        a.state.inFlightTopUpId,
        at,
      ],
    );
  }
}
