import { NewSendReservation, ReservationOutcome, ReservedMessage, SendReservation, SendReservationRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';

/** Built once: a hot statement's text is the prepared statement's key (see Database.query). */
const HELD = `SELECT coalesce(sum(amount), 0) AS amount, count(*) FILTER (WHERE from_allowance) AS allowance
  FROM chatapp_send_reservations WHERE user_id = $1 AND outcome IS NULL`;
const RESERVE = `INSERT INTO chatapp_send_reservations (user_id, sender_id, recipient_phone, message_sid, amount, from_allowance, message, created_at)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit RETURNING id`;
const CLOSE = `UPDATE chatapp_send_reservations SET outcome = $2, closed_at = $3 WHERE id = $1 AND outcome IS NULL RETURNING id`;

interface ReservationRow {
  id: string;
  user_id: string;
  sender_id: string;
  recipient_phone: string;
  message_sid: string;
  amount: string;
  from_allowance: boolean;
  message: ReservedMessage;
  created_at: Date;
}

export class TypeormSendReservationRepository implements SendReservationRepository {
  constructor(private readonly db: Database) {}

  async held(userId: number): Promise<{ amount: number; allowance: number }> {
    const row = await this.db.one<{ amount: string; allowance: string }>(HELD, [userId], { prepared: true });
    return { amount: num(row?.amount), allowance: num(row?.allowance) };
  }

  /**
   * Committed without waiting for the WAL flush (`synchronous_commit` off for the reserving
   * transaction only): a reservation moves no money, and what an api process that dies leaves is
   * flushed by the server within a fraction of a second. Only a database crash in that moment loses
   * it — and with it the hold, never a charge. The settlement, which charges, commits durably.
   */
  async reserve(r: NewSendReservation): Promise<SendReservation> {
    const row = await this.db.one<{ id: string }>(
      RESERVE,
      [r.userId, r.senderId, r.recipientPhone, r.messageSid, r.amount, r.fromAllowance, JSON.stringify(r.message), r.now],
      { prepared: true },
    );
    return { ...r, id: num(row!.id) };
  }

  async close(id: number, outcome: ReservationOutcome, now: Date): Promise<boolean> {
    return (await this.db.query<Pick<ReservationRow, 'id'>>(CLOSE, [id, outcome, now], { prepared: true })).length === 1;
  }

  async open(before: Date, limit: number): Promise<SendReservation[]> {
    const rows = await this.db.query<ReservationRow>(
      `SELECT id, user_id, sender_id, recipient_phone, message_sid, amount, from_allowance, message, created_at
         FROM chatapp_send_reservations WHERE outcome IS NULL AND created_at < $1 ORDER BY created_at, id LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => ({
      id: num(row.id), userId: num(row.user_id), senderId: num(row.sender_id), recipientPhone: row.recipient_phone, messageSid: row.message_sid,
      amount: num(row.amount), fromAllowance: row.from_allowance, message: row.message, now: new Date(row.created_at),
    }));
  }
}
