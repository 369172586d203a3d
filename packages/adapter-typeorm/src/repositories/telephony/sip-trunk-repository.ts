import { InboundAuthorizationType, SipCallingFormat } from '@voiceplane/domain';
import { SipTrunkIdentity, SipTrunkRepository, StoredSipTrunk } from '@voiceplane/application';
import { Database } from '../../database';
import type { PhoneNumberRecord, SipTrunkRecord } from '../../records';
import { num } from '../rows';

const SELECT = `
  SELECT p.id, p.user_id, p.phone_number, p.nickname, p.country_code, p.created_at, p.updated_at,
         s.sip_username, s.sip_password_cipher, s.sip_address, s.sip_calling_format, s.inbound_authorization_type,
         s.allowed_inbound_ips, s.outbound_proxy, s.inbound_trunk_id, s.outbound_trunk_id, s.inbound_route_id
    FROM phone_numbers p JOIN sip_trunks s ON s.id = p.id`;

/** SELECT: the number's side of the trunk and every column of its `sip_trunks` row. */
type TrunkRow = Pick<
  PhoneNumberRecord,
  'id' | 'user_id' | 'phone_number' | 'nickname' | 'country_code' | 'created_at' | 'updated_at'
> &
  Omit<SipTrunkRecord, 'id'>;

function toTrunk(r: TrunkRow): StoredSipTrunk {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    phoneNumber: r.phone_number,
    nickname: r.nickname ?? null,
    sipUsername: r.sip_username,
    sipPasswordCipher: r.sip_password_cipher,
    sipAddress: r.sip_address,
    sipCallingFormat: r.sip_calling_format as SipCallingFormat,
    inboundAuthorizationType: r.inbound_authorization_type as InboundAuthorizationType,
    allowedInboundIps: r.allowed_inbound_ips ?? null,
    outboundProxy: r.outbound_proxy,
    countryCode: r.country_code.trim(),
    inboundTrunkId: r.inbound_trunk_id,
    outboundTrunkId: r.outbound_trunk_id,
    inboundRouteId: r.inbound_route_id,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

const ips = (list: readonly string[] | null) => (list === null ? null : JSON.stringify(list));

/** A SIP trunk spans its phone-number row (number, nickname, country, times) and its `sip_trunks` row. */
export class TypeormSipTrunkRepository implements SipTrunkRepository {
  constructor(private readonly db: Database) {}

  async list(userId: number): Promise<StoredSipTrunk[]> {
    return (await this.db.query<TrunkRow>(`${SELECT} WHERE p.user_id = $1 ORDER BY p.id DESC`, [userId])).map(toTrunk);
  }

  async find(userId: number, id: number): Promise<StoredSipTrunk | null> {
    const r = await this.db.one<TrunkRow>(`${SELECT} WHERE p.id = $1 AND p.user_id = $2`, [id, userId]);
    return r ? toTrunk(r) : null;
  }

  async reserveId(): Promise<number> {
    const r = await this.db.one<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('phone_numbers', 'id')) AS id`);
    return num(r?.id);
  }

  async lockAccount(userId: number): Promise<void> {
    // Raw SQL: a row lock on the account serialises its trunk changes (the duplicate check then holds).
    // NO KEY UPDATE, as every lock on an account row: rows that only reference the account do not wait on it.
    await this.db.query(`SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
  }

  async hasDuplicate(userId: number, identity: SipTrunkIdentity, exceptId: number | null): Promise<boolean> {
    const r = await this.db.one<{ found: number }>(
      `SELECT 1 AS found FROM phone_numbers p JOIN sip_trunks s ON s.id = p.id
        WHERE p.user_id = $1 AND p.phone_number = $2 AND s.sip_username = $3 AND lower(s.sip_address) = lower($4)
          AND ($5::bigint IS NULL OR p.id <> $5::bigint)
        LIMIT 1`,
      [userId, identity.phoneNumber, identity.sipUsername, identity.sipAddress, exceptId],
    );
    return r !== null;
  }

  async insert(t: StoredSipTrunk): Promise<StoredSipTrunk> {
    await this.db.query(
      `INSERT INTO phone_numbers (id, user_id, phone_number, type, country_code, nickname, sms_capable, monthly_price, created_at, updated_at)
       VALUES ($1, $2, $3, 'sip', $4, $5, false, NULL, $6, $7)`,
      [t.id, t.userId, t.phoneNumber, t.countryCode, t.nickname, t.createdAt, t.updatedAt],
    );
    await this.db.query(
      `INSERT INTO sip_trunks (id, sip_username, sip_password_cipher, sip_address, sip_calling_format, inbound_authorization_type,
                               allowed_inbound_ips, outbound_proxy, inbound_trunk_id, outbound_trunk_id, inbound_route_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        t.id,
        t.sipUsername,
        t.sipPasswordCipher,
        t.sipAddress,
        t.sipCallingFormat,
        t.inboundAuthorizationType,
        ips(t.allowedInboundIps),
        t.outboundProxy,
        t.inboundTrunkId,
        t.outboundTrunkId,
        t.inboundRouteId,
      ],
    );
    return (await this.find(t.userId, t.id)) as StoredSipTrunk;
  }

  async update(t: StoredSipTrunk, readAt: Date): Promise<StoredSipTrunk | null> {
    // Raw SQL: a conditional UPDATE on the version read (updated_at), so a concurrent edit is detected, not overwritten.
    const claimed = await this.db.query<Pick<PhoneNumberRecord, 'id'>>(
      `UPDATE phone_numbers SET phone_number = $3, country_code = $4, nickname = $5, updated_at = $6
        WHERE id = $1 AND user_id = $2 AND type = 'sip' AND date_trunc('milliseconds', updated_at) = $7
        RETURNING id`,
      [t.id, t.userId, t.phoneNumber, t.countryCode, t.nickname, t.updatedAt, readAt],
    );
    if (claimed.length === 0) return null;
    await this.db.query(
      `UPDATE sip_trunks SET sip_username = $2, sip_password_cipher = $3, sip_address = $4, sip_calling_format = $5,
              inbound_authorization_type = $6, allowed_inbound_ips = $7, outbound_proxy = $8,
              inbound_trunk_id = $9, outbound_trunk_id = $10, inbound_route_id = $11
        WHERE id = $1`,
      [
        t.id,
        t.sipUsername,
        t.sipPasswordCipher,
        t.sipAddress,
        t.sipCallingFormat,
        t.inboundAuthorizationType,
        ips(t.allowedInboundIps),
        t.outboundProxy,
        t.inboundTrunkId,
        t.outboundTrunkId,
        t.inboundRouteId,
      ],
    );
    return this.find(t.userId, t.id);
  }
}
