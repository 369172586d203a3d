import { MessageTemplate, TemplateCategory, TemplateStatus } from '@voiceplane/domain';
import { NewTemplate, TemplateListFilter, TemplateRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { ChatappTemplateRecord } from '../../records';
import { isUniqueViolation, num, unlessFails } from '../rows';

const COLUMNS = `t.id, t.sender_id, t.name, t.language, t.category, t.status, t.body_text, t.footer_text, t.variables, t.rejection_reason,
  t.created_at, t.updated_at`;

/** COLUMNS: every column of the template but its provider reference. */
type TemplateRow = Omit<ChatappTemplateRecord, 'provider_template_ref'>;

function toTemplate(r: TemplateRow): MessageTemplate {
  return {
    id: num(r.id),
    senderId: num(r.sender_id),
    name: r.name,
    language: r.language,
    category: r.category as TemplateCategory,
    status: r.status as TemplateStatus,
    bodyText: r.body_text,
    footerText: r.footer_text ?? null,
    variables: r.variables,
    rejectionReason: r.rejection_reason ?? null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

export class TypeormTemplateRepository implements TemplateRepository {
  constructor(private readonly db: Database) {}

  /** A taken name undoes only this insert (a savepoint): the caller's transaction concludes with the refusal. */
  create(t: NewTemplate): Promise<MessageTemplate | null> {
    const insert = async () => {
      const row = await this.db.one<TemplateRow>(
        `INSERT INTO chatapp_templates AS t (sender_id, name, language, category, status, body_text, footer_text, variables, provider_template_ref, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING ${COLUMNS}`,
        [
          t.senderId,
          t.name,
          t.language,
          t.category,
          t.status,
          t.bodyText,
          t.footerText,
          JSON.stringify(t.variables),
          t.providerTemplateRef,
          t.now,
        ],
      );
      return toTemplate(row!);
    };
    return unlessFails(this.db, insert, isUniqueViolation, null);
  }

  async findForSender(senderId: number, id: number): Promise<MessageTemplate | null> {
    const row = await this.db.one<TemplateRow>(
      `SELECT ${COLUMNS} FROM chatapp_templates t WHERE t.id = $1 AND t.sender_id = $2`,
      [id, senderId],
    );
    return row === null ? null : toTemplate(row);
  }

  async findOwned(userId: number, id: number): Promise<MessageTemplate | null> {
    const row = await this.db.one<TemplateRow>(
      `SELECT ${COLUMNS} FROM chatapp_templates t JOIN chatapp_senders s ON s.id = t.sender_id WHERE t.id = $1 AND s.user_id = $2`,
      [id, userId],
    );
    return row === null ? null : toTemplate(row);
  }

  async list(senderId: number, filter: TemplateListFilter): Promise<MessageTemplate[]> {
    const rows =
      filter === 'all'
        ? await this.db.query<TemplateRow>(
            `SELECT ${COLUMNS} FROM chatapp_templates t WHERE t.sender_id = $1 ORDER BY t.id`,
            [senderId],
          )
        : await this.db.query<TemplateRow>(
            `SELECT ${COLUMNS} FROM chatapp_templates t WHERE t.sender_id = $1 AND t.status = $2 ORDER BY t.id`,
            [senderId, filter],
          );
    return rows.map(toTemplate);
  }

  async setStatus(
    id: number,
    status: TemplateStatus,
    rejectionReason: string | null,
    now: Date,
  ): Promise<MessageTemplate | null> {
    const row = await this.db.one<TemplateRow>(
      `UPDATE chatapp_templates t SET status = $2, rejection_reason = $3, updated_at = $4 WHERE t.id = $1 RETURNING ${COLUMNS}`,
      [id, status, status === 'rejected' ? rejectionReason : null, now],
    );
    return row === null ? null : toTemplate(row);
  }

  async findByProviderRef(ref: string): Promise<MessageTemplate | null> {
    const row = await this.db.one<TemplateRow>(
      `SELECT ${COLUMNS} FROM chatapp_templates t WHERE t.provider_template_ref = $1`,
      [ref],
    );
    return row === null ? null : toTemplate(row);
  }
}
