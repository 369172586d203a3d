import { SmsEncoding, SmsStatus } from '@voiceplane/domain';
import {
  NewSmsMessage,
  Page,
  PageRequest,
  SmsMessage,
  SmsMessageRepository,
  SmsSettlement,
  SmsStatusReport,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { SmsMessageRecord } from '../../records';
import { Count, num, pageClause } from '../rows';

const HELD = `SELECT coalesce(sum(cost), 0) AS held FROM sms_messages WHERE user_id = $1 AND settlement = 'pending'`;

function toSms(r: SmsMessageRecord): SmsMessage {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    phoneNumberId: num(r.phone_number_id),
    from: r.from_phone,
    to: r.to_phone,
    body: r.body,
    encoding: r.encoding as SmsEncoding,
    segments: r.segments,
    cost: num(r.cost),
    settlement: r.settlement as SmsSettlement,
    status: r.status as SmsStatus,
    providerMessageId: r.provider_message_id,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    requestId: r.request_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export class TypeormSmsMessageRepository implements SmsMessageRepository {
  constructor(private readonly db: Database) {}

  async held(userId: number): Promise<number> {
    const row = await this.db.one<{ held: string }>(HELD, [userId], { prepared: true });
    return num(row?.held);
  }

  async reserve(m: NewSmsMessage): Promise<SmsMessage> {
    const rows = await this.db.query<SmsMessageRecord>(
      `INSERT INTO sms_messages (user_id, phone_number_id, from_phone, to_phone, body, encoding, segments, cost, settlement, status, request_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 'sent', $9, $10, $10) RETURNING *`,
      [m.userId, m.phoneNumberId, m.from, m.to, m.body, m.encoding, m.segments, m.cost, m.requestId, m.now],
    );
    return toSms(rows[0]);
  }

  async settle(id: number, providerMessageId: string, now: Date): Promise<SmsMessage | null> {
    const row = await this.db.one<SmsMessageRecord>(
      `UPDATE sms_messages SET settlement = 'settled', provider_message_id = $2, updated_at = $3
        WHERE id = $1 AND settlement = 'pending' RETURNING *`,
      [id, providerMessageId, now],
    );
    return row ? toSms(row) : null;
  }

  async release(id: number, reason: string, now: Date): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE sms_messages SET settlement = 'released', status = 'failed', cost = 0, error_message = $2, updated_at = $3
        WHERE id = $1 AND settlement = 'pending' RETURNING id`,
      [id, reason, now],
    );
    return rows.length > 0;
  }

  report(
    report: SmsStatusReport,
    next: (current: SmsStatus) => SmsStatus | null,
    now: Date,
  ): Promise<SmsMessage | null> {
    // Read and written under the row's lock: two reports of one message are applied one after the other.
    return this.db.transaction(async () => {
      const row = await this.db.one<SmsMessageRecord>(
        `SELECT * FROM sms_messages WHERE id = $1 AND settlement <> 'released'
            AND (provider_message_id IS NULL OR provider_message_id = $2) FOR NO KEY UPDATE`,
        [report.reference, report.providerMessageId],
      );
      if (!row) return null;
      const status = next(row.status as SmsStatus);
      if (row.settlement === 'pending' && row.provider_message_id === null)
        await this.db.query(`UPDATE sms_messages SET provider_message_id = $2 WHERE id = $1`, [
          report.reference,
          report.providerMessageId,
        ]);
      if (status === null) return null;
      const updated = await this.db.one<SmsMessageRecord>(
        `UPDATE sms_messages SET status = $2, error_code = $3, error_message = $4, updated_at = $5 WHERE id = $1 RETURNING *`,
        [report.reference, status, report.errorCode, report.errorMessage, now],
      );
      return updated ? toSms(updated) : null;
    });
  }

  async find(userId: number, id: number): Promise<SmsMessage | null> {
    const row = await this.db.one<SmsMessageRecord>(`SELECT * FROM sms_messages WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return row ? toSms(row) : null;
  }

  async stalePending(before: Date, limit: number): Promise<SmsMessage[]> {
    const rows = await this.db.query<SmsMessageRecord>(
      `SELECT * FROM sms_messages WHERE settlement = 'pending' AND created_at < $1 ORDER BY created_at, id LIMIT $2`,
      [before, limit],
    );
    return rows.map(toSms);
  }

  async list(userId: number, page: PageRequest): Promise<Page<SmsMessage>> {
    const limit = pageClause(page, 2);
    const rows = await this.db.query<SmsMessageRecord>(
      `SELECT * FROM sms_messages WHERE user_id = $1 ORDER BY id DESC ${limit.sql}`,
      [userId, ...limit.params],
    );
    const count = await this.db.one<Count>(`SELECT count(*) AS n FROM sms_messages WHERE user_id = $1`, [userId]);
    return { items: rows.map(toSms), total: num(count?.n) };
  }
}
