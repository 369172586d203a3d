import { CallPermission, noCallPermission, ok, Result, StoredCallPermissionStatus } from '@voiceplane/domain';
import { CallPermissionChange, CallPermissionRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { CallPermissionRecord } from '../../records';
import { num } from '../rows';

const COLUMNS =
  'sender_id, customer_phone, status, is_permanent, expires_at, requested_at, responded_at, asks, asks_counted_after';

/** Namespace of the per-contact advisory locks (the key is a hash of sender and phone). */
const PERMISSION_LOCK_CLASS = 7214002;

/** Every column of the record: the rows below are whole `CallPermissionRecord`s. */
function toPermission(r: CallPermissionRecord): CallPermission {
  return {
    senderId: num(r.sender_id),
    customerPhone: r.customer_phone,
    status: r.status as StoredCallPermissionStatus,
    isPermanent: r.is_permanent,
    expiresAt: r.expires_at,
    requestedAt: r.requested_at,
    respondedAt: r.responded_at,
    asks: r.asks,
    asksCountedAfter: r.asks_counted_after,
  };
}

export class TypeormCallPermissionRepository implements CallPermissionRepository {
  constructor(private readonly db: Database) {}

  async find(senderId: number, customerPhone: string): Promise<CallPermission> {
    const row = await this.db.one<CallPermissionRecord>(
      `SELECT ${COLUMNS} FROM chatapp_call_permissions WHERE sender_id = $1 AND customer_phone = $2`,
      [senderId, customerPhone],
    );
    return row === null ? noCallPermission(senderId, customerPhone) : toPermission(row);
  }

  update<A, E>(
    senderId: number,
    customerPhone: string,
    decide: (current: CallPermission) => Promise<Result<CallPermissionChange<A>, E>>,
  ): Promise<Result<A, E>> {
    return this.db.transaction(async () => {
      // An advisory lock rather than SELECT … FOR UPDATE: a contact never asked has no row to lock,
      // and a refused first request must leave no row behind.
      await this.db.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [
        PERMISSION_LOCK_CLASS,
        `${senderId}:${customerPhone}`,
      ]);
      const decision = await decide(await this.find(senderId, customerPhone));
      if (!decision.ok) return decision;
      if (decision.value.next !== null) await this.store(decision.value.next);
      return ok(decision.value.answer);
    });
  }

  private async store(p: CallPermission): Promise<void> {
    await this.db.query(
      `INSERT INTO chatapp_call_permissions (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz[], $9)
       ON CONFLICT (sender_id, customer_phone) DO UPDATE SET status = EXCLUDED.status, is_permanent = EXCLUDED.is_permanent,
         expires_at = EXCLUDED.expires_at, requested_at = EXCLUDED.requested_at, responded_at = EXCLUDED.responded_at,
         asks = EXCLUDED.asks, asks_counted_after = EXCLUDED.asks_counted_after`,
      [
        p.senderId,
        p.customerPhone,
        p.status,
        p.isPermanent,
        p.expiresAt,
        p.requestedAt,
        p.respondedAt,
        p.asks.map((at) => at.toISOString()),
        p.asksCountedAfter,
      ],
    );
  }
}
