import { NewPurchasedNumber, PhoneNumber, PhoneNumberRepository, PhoneNumberType } from '@voiceplane/application';
import { Database } from '../../database';
import type { PhoneNumberRecord } from '../../records';
import { dateOrNull, num, numOrNull } from '../rows';

const COLUMNS = `p.id, p.user_id, p.phone_number, p.type, p.country_code, p.nickname, p.sms_capable, p.monthly_price,
  p.provider_reference, p.renews_at, p.created_at, p.updated_at`;

/** The inbound assistant answering on the number (at most one: a unique index of the assistants table). */
const WITH_ASSISTANT = `${COLUMNS}, (SELECT a.id FROM assistants a
   WHERE a.phone_number_id = p.id AND a.user_id = p.user_id AND a.type = 'inbound' LIMIT 1) AS inbound_assistant_id`;

/** COLUMNS is every column of `phone_numbers`; the inbound assistant's id (bigint) is null without one. */
type NumberRow = PhoneNumberRecord & { inbound_assistant_id: string | null };

function toNumber(r: NumberRow): PhoneNumber {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    phoneNumber: r.phone_number,
    type: r.type as PhoneNumberType,
    countryCode: r.country_code.trim(),
    nickname: r.nickname ?? null,
    smsCapable: r.sms_capable,
    monthlyPrice: numOrNull(r.monthly_price),
    inboundAssistantId: numOrNull(r.inbound_assistant_id),
    providerReference: r.provider_reference ?? null,
    renewsAt: dateOrNull(r.renews_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export class TypeormPhoneNumberRepository implements PhoneNumberRepository {
  constructor(private readonly db: Database) {}

  async list(userId: number): Promise<PhoneNumber[]> {
    return (
      await this.db.query<NumberRow>(
        `SELECT ${WITH_ASSISTANT} FROM phone_numbers p WHERE p.user_id = $1 ORDER BY p.id DESC`,
        [userId],
      )
    ).map(toNumber);
  }

  async find(userId: number, id: number): Promise<PhoneNumber | null> {
    const r = await this.db.one<NumberRow>(
      `SELECT ${WITH_ASSISTANT} FROM phone_numbers p WHERE p.id = $1 AND p.user_id = $2`,
      [id, userId],
    );
    return r ? toNumber(r) : null;
  }

  async purchasedAmong(phoneNumbers: readonly string[]): Promise<Set<string>> {
    if (phoneNumbers.length === 0) return new Set();
    const rows = await this.db.query<{ phone_number: string }>(
      `SELECT phone_number FROM phone_numbers WHERE type = 'purchased' AND phone_number = ANY($1::text[])`,
      [phoneNumbers],
    );
    return new Set(rows.map((r) => r.phone_number));
  }

  async insertPurchased(n: NewPurchasedNumber): Promise<PhoneNumber | null> {
    // Raw SQL: ON CONFLICT on the partial unique index (a purchased number belongs to one account) answers a lost race with no row.
    const rows = await this.db.query<NumberRow>(
      `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, nickname, sms_capable, monthly_price, provider_reference, renews_at, created_at, updated_at)
       VALUES ($1, $2, 'purchased', $3, NULL, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (phone_number) WHERE type = 'purchased' DO NOTHING
       RETURNING ${COLUMNS.replace(/p\./g, '')}, NULL AS inbound_assistant_id`,
      [
        n.userId,
        n.phoneNumber,
        n.countryCode,
        n.smsCapable,
        n.monthlyPrice,
        n.providerReference,
        n.renewsAt,
        n.purchasedAt,
      ],
    );
    return rows[0] ? toNumber(rows[0]) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    // The foreign key would null it too; doing it here also marks the assistants as changed.
    await this.db.query(
      `UPDATE assistants SET phone_number_id = NULL, updated_at = now() WHERE user_id = $1 AND phone_number_id = $2`,
      [userId, id],
    );
    // A released number leaves every caller-ID pool of the account's campaigns, the rest of each pool in its
    // order; a pool left empty falls back to the assistant's line when the dialer next places a call.
    await this.db.query(
      `UPDATE campaigns SET updated_at = now(), phone_number_ids =
         (SELECT COALESCE(json_agg(e ORDER BY o), '[]'::json)
            FROM json_array_elements(phone_number_ids) WITH ORDINALITY AS pool(e, o) WHERE e::text <> $2::text)
        WHERE user_id = $1 AND phone_number_ids::jsonb @> jsonb_build_array($2::bigint)`,
      [userId, id],
    );
    const rows = await this.db.query<Pick<PhoneNumberRecord, 'id'>>(
      `DELETE FROM phone_numbers WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length > 0;
  }

  async claimDueRenewal(now: Date): Promise<PhoneNumber | null> {
    // Raw SQL: a SKIP LOCKED claim, so renewal workers take different numbers.
    const r = await this.db.one<NumberRow>(
      `SELECT ${COLUMNS}, NULL AS inbound_assistant_id FROM phone_numbers p
        WHERE p.type = 'purchased' AND p.renews_at <= $1
        ORDER BY p.renews_at, p.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return r ? toNumber(r) : null;
  }

  async rename(userId: number, id: number, nickname: string | null, at: Date): Promise<PhoneNumber | null> {
    const renamed = await this.db.one<{ id: string }>(
      `UPDATE phone_numbers SET nickname = $3, updated_at = $4 WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId, nickname, at],
    );
    return renamed === null ? null : this.find(userId, id);
  }

  async setRenewsAt(id: number, renewsAt: Date): Promise<void> {
    await this.db.query(`UPDATE phone_numbers SET renews_at = $2 WHERE id = $1`, [id, renewsAt]);
  }
}
