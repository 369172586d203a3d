import { QualityRating, Sender, SenderStatus } from '@voiceplane/domain';
import {
  NewSender,
  SenderCallingLine,
  SenderChanges,
  SenderListFilter,
  SenderReach,
  SenderRepository,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { ChatappSenderRecord } from '../../records';
import { isUniqueViolation, num, numOrNull, unlessFails } from '../rows';

const COLUMNS = `id, user_id, phone_number, display_name, status, quality_rating, messaging_limit, country_code, assistant_id,
  calling_enabled, status_webhook_url, provider, created_at, updated_at`;
/** Built once: a hot statement's text is the prepared statement's key (see Database.query). */
const FIND_OWNED = `SELECT ${COLUMNS} FROM chatapp_senders WHERE id = $1 AND user_id = $2`;

/** COLUMNS: what a sender shows; never its provider credentials or calling line. */
type SenderRow = Pick<
  ChatappSenderRecord,
  | 'id'
  | 'user_id'
  | 'phone_number'
  | 'display_name'
  | 'status'
  | 'quality_rating'
  | 'messaging_limit'
  | 'country_code'
  | 'assistant_id'
  | 'calling_enabled'
  | 'status_webhook_url'
  | 'provider'
  | 'created_at'
  | 'updated_at'
>;

function toSender(r: SenderRow): Sender {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    phoneNumber: r.phone_number,
    displayName: r.display_name,
    status: r.status as SenderStatus,
    qualityRating: r.quality_rating as QualityRating,
    messagingLimit: numOrNull(r.messaging_limit),
    countryCode: r.country_code,
    assistantId: numOrNull(r.assistant_id),
    callingEnabled: r.calling_enabled,
    statusWebhookUrl: r.status_webhook_url ?? null,
    provider: r.provider,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

const SETTABLE: Readonly<Record<keyof SenderChanges, string>> = {
  displayName: 'display_name',
  assistantId: 'assistant_id',
  callingEnabled: 'calling_enabled',
  statusWebhookUrl: 'status_webhook_url',
};

export class TypeormSenderRepository implements SenderRepository {
  constructor(private readonly db: Database) {}

  /** A taken number undoes only this insert (a savepoint): the caller's transaction concludes with the refusal. */
  create(s: NewSender): Promise<Sender | null> {
    const insert = async () => {
      const row = await this.db.one<SenderRow>(
        `INSERT INTO chatapp_senders (user_id, phone_number, display_name, status, quality_rating, messaging_limit, country_code, assistant_id,
           calling_enabled, status_webhook_url, provider, provider_sender_ref, provider_config, provider_account_ref, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15, $14, $14) RETURNING ${COLUMNS}`,
        [
          s.userId,
          s.phoneNumber,
          s.displayName,
          s.status,
          s.qualityRating,
          s.messagingLimit,
          s.countryCode,
          s.assistantId,
          s.callingEnabled,
          s.statusWebhookUrl,
          s.provider,
          s.providerSenderRef,
          s.sealedCredentials,
          s.now,
          s.providerAccountRef,
        ],
      );
      return toSender(row!);
    };
    return unlessFails(this.db, insert, isUniqueViolation, null);
  }

  async findOwned(userId: number, id: number): Promise<Sender | null> {
    const row = await this.db.one<SenderRow>(FIND_OWNED, [id, userId], { prepared: true });
    return row === null ? null : toSender(row);
  }

  async list(userId: number, filter: SenderListFilter): Promise<Sender[]> {
    const rows =
      filter === 'all'
        ? await this.db.query<SenderRow>(`SELECT ${COLUMNS} FROM chatapp_senders WHERE user_id = $1 ORDER BY id`, [
            userId,
          ])
        : await this.db.query<SenderRow>(
            `SELECT ${COLUMNS} FROM chatapp_senders WHERE user_id = $1 AND status = $2 ORDER BY id`,
            [userId, filter],
          );
    return rows.map(toSender);
  }

  async update(userId: number, id: number, changes: SenderChanges, now: Date): Promise<Sender | null> {
    const sets: string[] = [];
    const params: unknown[] = [id, userId, now];
    for (const [key, column] of Object.entries(SETTABLE) as [keyof SenderChanges, string][]) {
      if (changes[key] === undefined) continue;
      params.push(changes[key]);
      sets.push(`${column} = $${params.length}`);
    }
    const row = await this.db.one<SenderRow>(
      `UPDATE chatapp_senders SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      params,
    );
    return row === null ? null : toSender(row);
  }

  async setStatus(
    id: number,
    status: SenderStatus,
    qualityRating: QualityRating | null,
    now: Date,
  ): Promise<Sender | null> {
    const row = await this.db.one<SenderRow>(
      `UPDATE chatapp_senders SET status = $2, quality_rating = COALESCE($3, quality_rating), updated_at = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, status, qualityRating, now],
    );
    return row === null ? null : toSender(row);
  }

  async setAccountStatus(providerAccountRef: string, status: SenderStatus, now: Date): Promise<Sender[]> {
    const rows = await this.db.query<SenderRow>(
      `UPDATE chatapp_senders SET status = $2, updated_at = $3 WHERE provider_account_ref = $1 RETURNING ${COLUMNS}`,
      [providerAccountRef, status, now],
    );
    return rows.map(toSender).sort((a, b) => a.id - b.id);
  }

  async setReach(id: number, reach: SenderReach, now: Date): Promise<Sender | null> {
    const row = await this.db.one<SenderRow>(
      `UPDATE chatapp_senders SET quality_rating = COALESCE($2, quality_rating),
         messaging_limit = CASE WHEN $3::boolean THEN $4::integer ELSE messaging_limit END, updated_at = $5
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, reach.qualityRating, reach.messagingLimit !== null, reach.messagingLimit?.value ?? null, now],
    );
    return row === null ? null : toSender(row);
  }

  async findByProviderRef(ref: string): Promise<Sender | null> {
    const row = await this.db.one<SenderRow>(
      `SELECT ${COLUMNS} FROM chatapp_senders WHERE provider_sender_ref = $1 OR phone_number = $1 ORDER BY provider_sender_ref = $1 DESC LIMIT 1`,
      [ref],
    );
    return row === null ? null : toSender(row);
  }

  /** Not a change the user made or sees on the sender: `updated_at` stays. */
  async setCallingLine(id: number, line: SenderCallingLine): Promise<void> {
    await this.db.query(
      `UPDATE chatapp_senders SET calling_trunk_id = $2, calling_sip_password = $3, calling_error = $4 WHERE id = $1`,
      [id, line.trunkId, line.sealedSipPassword, line.error?.slice(0, 255) ?? null],
    );
  }

  async callingLine(id: number): Promise<SenderCallingLine | null> {
    const row = await this.db.one<{
      calling_trunk_id: string | null;
      calling_sip_password: string | null;
      calling_error: string | null;
    }>(`SELECT calling_trunk_id, calling_sip_password, calling_error FROM chatapp_senders WHERE id = $1`, [id]);
    return row === null
      ? null
      : { trunkId: row.calling_trunk_id, sealedSipPassword: row.calling_sip_password, error: row.calling_error };
  }

  async sealedCredentials(id: number): Promise<string | null> {
    const row = await this.db.one<{ provider_config: string | null }>(
      `SELECT provider_config FROM chatapp_senders WHERE id = $1`,
      [id],
    );
    return row?.provider_config ?? null;
  }
}
