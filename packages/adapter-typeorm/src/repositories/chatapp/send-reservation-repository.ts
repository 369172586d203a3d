import { Conversation } from '@voiceplane/domain';
import {
  HeldBySends,
  NewSendReservation,
  ReservationOutcome,
  ReservedMessage,
  SendReservation,
  SendReservationRepository,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { ConversationRecord } from '../../records';
import { num } from '../rows';
import { CONVERSATION_COLUMNS, toConversation } from './conversation-repository';

/** Built once: a hot statement's text is the prepared statement's key (see Database.query). */
const HELD = `SELECT coalesce(sum(amount), 0) AS amount, count(*) FILTER (WHERE from_allowance) AS allowance
  FROM chatapp_send_reservations WHERE user_id = $1 AND outcome IS NULL`;
const RESERVE = `INSERT INTO chatapp_send_reservations (user_id, sender_id, recipient_phone, message_sid, amount, from_allowance, message, created_at)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit RETURNING id`;
const CLOSE = `UPDATE chatapp_send_reservations SET outcome = $2, closed_at = $3 WHERE id = $1 AND outcome IS NULL RETURNING id`;
/**
 * HELD, then the conversation's lock (TypeormConversationRepository's): the aggregate is the outer
 * side of the nested loop, so it is read before the lock is taken, as in two statements. Its
 * snapshot is the statement's, taken after the balance lock was held.
 */
const HELD_LOCKING_CONVERSATION = `SELECT held.amount AS held_amount, held.allowance AS held_allowance, c.*
  FROM (${HELD.replace('$1', '$3')}) AS held
  LEFT JOIN LATERAL (SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR NO KEY UPDATE) AS c ON true`;
/**
 * The conversation's lock, then CLOSE: the update's condition reads the locked conversation, so the
 * lock is taken first (the settlement's order, as in two statements).
 */
const CLOSE_LOCKING_CONVERSATION = `WITH c AS (SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE sender_id = $1 AND customer_phone = $2 FOR NO KEY UPDATE),
  closed AS (UPDATE chatapp_send_reservations SET outcome = $4, closed_at = $5
    WHERE id = $3 AND outcome IS NULL AND (SELECT count(*) FROM c) >= 0 RETURNING id)
  SELECT (SELECT count(*) FROM closed) AS closed, c.* FROM (SELECT 1) AS one LEFT JOIN c ON true`;

type Nullable<T> = { [K in keyof T]: T[K] | null };

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

  async heldLockingConversation(
    userId: number,
    senderId: number,
    customerPhone: string,
  ): Promise<{ held: HeldBySends; conversation: Conversation | null }> {
    const row = await this.db.one<Nullable<ConversationRecord> & { held_amount: string; held_allowance: string }>(
      HELD_LOCKING_CONVERSATION,
      [senderId, customerPhone, userId],
      { prepared: true },
    );
    return {
      held: { amount: num(row?.held_amount), allowance: num(row?.held_allowance) },
      conversation: row === null || row.id === null ? null : toConversation(row as ConversationRecord),
    };
  }

  async closeLockingConversation(
    id: number,
    outcome: ReservationOutcome,
    now: Date,
    senderId: number,
    customerPhone: string,
  ): Promise<{ closed: boolean; conversation: Conversation | null }> {
    const row = await this.db.one<Nullable<ConversationRecord> & { closed: string }>(
      CLOSE_LOCKING_CONVERSATION,
      [senderId, customerPhone, id, outcome, now],
      { prepared: true },
    );
    return {
      closed: num(row?.closed) === 1,
      conversation: row === null || row.id === null ? null : toConversation(row as ConversationRecord),
    };
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
      [
        r.userId,
        r.senderId,
        r.recipientPhone,
        r.messageSid,
        r.amount,
        r.fromAllowance,
        JSON.stringify(r.message),
        r.now,
      ],
      { prepared: true },
    );
    return { ...r, id: num(row!.id) };
  }

  async close(id: number, outcome: ReservationOutcome, now: Date): Promise<boolean> {
    return (
      (await this.db.query<Pick<ReservationRow, 'id'>>(CLOSE, [id, outcome, now], { prepared: true })).length === 1
    );
  }

  async open(before: Date, limit: number): Promise<SendReservation[]> {
    const rows = await this.db.query<ReservationRow>(
      `SELECT id, user_id, sender_id, recipient_phone, message_sid, amount, from_allowance, message, created_at
         FROM chatapp_send_reservations WHERE outcome IS NULL AND created_at < $1 ORDER BY created_at, id LIMIT $2`,
      [before, limit],
    );
    return rows.map((row) => ({
      id: num(row.id),
      userId: num(row.user_id),
      senderId: num(row.sender_id),
      recipientPhone: row.recipient_phone,
      messageSid: row.message_sid,
      amount: num(row.amount),
      fromAllowance: row.from_allowance,
      message: row.message,
      now: new Date(row.created_at),
    }));
  }
}
