import {
  Assistant,
  AssistantConfig,
  err,
  ok,
  OutboundAssistant,
  OwnedReferences,
  ReferenceQuery,
  Result,
} from '@voiceplane/domain';
import {
  AssistantChange,
  AssistantFilter,
  AssistantNotFound,
  AssistantRepository,
  AssistantWrite,
  InboundNumberTaken,
  Outbox,
  Page,
  PageRequest,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { AssistantRecord } from '../../records';
import { num, pageClause, unlessFails } from '../rows';
import { Counted, totalOf } from './paging';
import {
  ASSISTANT_SELECT,
  AssistantRow,
  CONFIG_COLUMNS,
  configParams,
  OUTBOUND_COLUMNS,
  OutboundAssistantRow,
  toAssistant,
  toOutboundAssistant,
} from './assistant-rows';

/** The ids of the references a request names that the account owns (bigint arrays: strings), its tools' names, and whether the inbound number is taken. */
interface OwnedReferenceRow {
  folder_ids: string[];
  knowledge_base_ids: string[];
  phone_number_ids: string[];
  label_ids: string[];
  tools: Array<{ id: number; name: string }>;
  event_type_ids: string[];
  assistant_ids: string[];
  inbound_taken: boolean;
}

const INBOUND_NUMBER_INDEX = 'assistants_inbound_number_uq';

function isInboundNumberConflict(e: unknown): boolean {
  const error = e as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const pg = error.driverError ?? error;
  return pg.code === '23505' && pg.constraint === INBOUND_NUMBER_INDEX;
}

const EMPTY_REFERENCES: OwnedReferences = {
  folderIds: new Set(),
  knowledgeBaseIds: new Set(),
  phoneNumberIds: new Set(),
  labelIds: new Set(),
  toolNames: new Map(),
  eventTypeIds: new Set(),
  assistantIds: new Set(),
  inboundNumberTaken: false,
};

/** The WHERE clause (on alias `a`) both assistant lists share. */
function filterClause(userId: number, filter: AssistantFilter): { clause: string; params: unknown[] } {
  const conditions = ['a.user_id = $1'];
  const params: unknown[] = [userId];
  const where = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.type) where('a.type = ?', filter.type);
  if (filter.status) where('a.status = ?', filter.status);
  if (filter.folderId) where('a.folder_id = ?', filter.folderId);
  if (filter.labelId)
    where('EXISTS (SELECT 1 FROM assistant_labels f WHERE f.assistant_id = a.id AND f.label_id = ?)', filter.labelId);
  return { clause: conditions.join(' AND '), params };
}

export class TypeormAssistantRepository implements AssistantRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
  ) {}

  create(userId: number, config: AssistantConfig): Promise<Assistant | InboundNumberTaken> {
    return this.guardInboundNumber(async () => {
      const placeholders = CONFIG_COLUMNS.map((_, i) => `$${i + 2}`).join(', ');
      const row = await this.db.one<AssistantRecord>(
        `INSERT INTO assistants (user_id, ${CONFIG_COLUMNS.join(', ')}) VALUES ($1, ${placeholders}) RETURNING *`,
        [userId, ...configParams(config)],
      );
      const id = num(row!.id);
      await this.attach(id, config, { toolIds: true, labelIds: true });
      return toAssistant({ ...row!, tool_ids: config.toolIds, label_ids: config.labelIds });
    });
  }

  async findOwned(userId: number, id: number, options: { lock?: boolean } = {}): Promise<Assistant | null> {
    // Raw SQL: the optional row lock makes a status or webhook change and a reader of them take turns.
    const lock = options.lock ? ' FOR UPDATE OF a' : '';
    const row = await this.db.one<AssistantRow>(`${ASSISTANT_SELECT} WHERE a.user_id = $1 AND a.id = $2${lock}`, [
      userId,
      id,
    ]);
    return row ? toAssistant(row) : null;
  }

  async findOwnedByUuid(userId: number, uuid: string): Promise<Assistant | null> {
    const row = await this.db.one<AssistantRow>(`${ASSISTANT_SELECT} WHERE a.user_id = $1 AND a.uuid = $2`, [
      userId,
      uuid,
    ]);
    return row ? toAssistant(row) : null;
  }

  update<E>(
    userId: number,
    id: number,
    decide: (current: Assistant) => Promise<Result<AssistantChange, E>>,
  ): Promise<Result<Assistant, E | AssistantNotFound | InboundNumberTaken>> {
    return this.db.transaction(async () => {
      const current = await this.findOwned(userId, id, { lock: true });
      if (!current) return err({ code: 'not_found' as const });
      const decision = await decide(current);
      if (!decision.ok) return decision;
      const { write, events = [] } = decision.value;
      const stored = write === null ? current : await this.write(current, write);
      if (stored === 'inbound_number_taken') return err(stored);
      await this.outbox.add(events);
      return ok(stored);
    });
  }

  /** The columns of one kind of change; the links stay as read under the lock unless replaced. */
  private async write(current: Assistant, write: AssistantWrite): Promise<Assistant | InboundNumberTaken> {
    const links = { tool_ids: current.toolIds, label_ids: current.labelIds };
    switch (write.kind) {
      case 'status': {
        const row = await this.db.one<AssistantRecord>(
          `UPDATE assistants SET status = $2, updated_at = now() WHERE id = $1 RETURNING *`,
          [current.id, write.status],
        );
        return toAssistant({ ...row!, ...links });
      }
      case 'webhook': {
        const row = await this.db.one<AssistantRecord>(
          `UPDATE assistants SET is_webhook_active = $2, webhook_url = $3, updated_at = now() WHERE id = $1 RETURNING *`,
          [current.id, write.webhook.isWebhookActive, write.webhook.webhookUrl],
        );
        return toAssistant({ ...row!, ...links });
      }
      case 'webhook_url': {
        const column = write.target === 'inbound' ? 'inbound_webhook_url' : 'conversation_ended_webhook_url';
        const row = await this.db.one<AssistantRecord>(
          `UPDATE assistants SET ${column} = $2, updated_at = now() WHERE id = $1 RETURNING *`,
          [current.id, write.url],
        );
        return toAssistant({ ...row!, ...links });
      }
      case 'config':
        return this.guardInboundNumber(async () => {
          const { config } = write;
          const sets = CONFIG_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ');
          const row = await this.db.one<AssistantRecord>(
            `UPDATE assistants SET ${sets}, updated_at = now() WHERE id = $1 RETURNING *`,
            [current.id, ...configParams(config)],
          );
          await this.attach(current.id, config, write.replace);
          return toAssistant({ ...row!, tool_ids: config.toolIds, label_ids: config.labelIds });
        });
    }
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db.query<Pick<AssistantRecord, 'id'>>(
      `DELETE FROM assistants WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id],
    );
    return rows.length > 0;
  }

  async list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>> {
    const { clause, params } = filterClause(userId, filter);
    const limit = pageClause(page, params.length + 1);
    const rows = await this.db.query<AssistantRow & Counted>(
      `SELECT listed.*, count(*) OVER () AS total FROM (${ASSISTANT_SELECT} WHERE ${clause}) listed ORDER BY listed.id DESC ${limit.sql}`,
      [...params, ...limit.params],
    );
    return {
      items: rows.map(toAssistant),
      total: await totalOf(rows, () =>
        this.db.one<{ n: string }>(`SELECT count(*) AS n FROM assistants a WHERE ${clause}`, params),
      ),
    };
  }

  async listAll(userId: number, filter: AssistantFilter): Promise<Assistant[]> {
    const { clause, params } = filterClause(userId, filter);
    const rows = await this.db.query<AssistantRow>(`${ASSISTANT_SELECT} WHERE ${clause} ORDER BY a.id`, params);
    return rows.map(toAssistant);
  }

  async listOutbound(userId: number): Promise<OutboundAssistant[]> {
    const rows = await this.db.query<OutboundAssistantRow>(
      `SELECT ${OUTBOUND_COLUMNS} FROM assistants WHERE user_id = $1 AND type = 'outbound' ORDER BY id`,
      [userId],
    );
    return rows.map(toOutboundAssistant);
  }

  async setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean> {
    const rows = await this.db.query<Pick<AssistantRecord, 'id'>>(
      `UPDATE assistants SET compliance_blocked = $2, compliance_reason = $3, updated_at = now() WHERE id = $1 RETURNING id`,
      [id, blocked, reason],
    );
    return rows.length > 0;
  }

  /** One round trip for every reference of the request; none when it names no account records. */
  async findOwnedReferences(userId: number, q: ReferenceQuery): Promise<OwnedReferences> {
    const lists = [
      q.folderIds,
      q.knowledgeBaseIds,
      q.phoneNumberIds,
      q.labelIds,
      q.toolIds,
      q.eventTypeIds,
      q.assistantIds,
    ];
    if (lists.every((l) => l.length === 0) && !q.inboundNumber) return EMPTY_REFERENCES;
    const owned = (table: string, param: number) =>
      `ARRAY(SELECT id FROM ${table} WHERE user_id = $1 AND id = ANY($${param}::bigint[]))`;
    const r = await this.db.one<OwnedReferenceRow>(
      `SELECT ${owned('folders', 2)} AS folder_ids,
              ${owned('knowledge_bases', 3)} AS knowledge_base_ids,
              ${owned('phone_numbers', 4)} AS phone_number_ids,
              ${owned('labels', 5)} AS label_ids,
              (SELECT coalesce(json_agg(json_build_object('id', id, 'name', name)), '[]'::json)
                 FROM tools WHERE user_id = $1 AND id = ANY($6::bigint[])) AS tools,
              ${owned('event_types', 7)} AS event_type_ids,
              ${owned('assistants', 8)} AS assistant_ids,
              EXISTS (SELECT 1 FROM assistants WHERE type = 'inbound' AND phone_number_id = $9::bigint
                        AND ($10::bigint IS NULL OR id <> $10::bigint)) AS inbound_taken`,
      [userId, ...lists, q.inboundNumber?.phoneNumberId ?? null, q.inboundNumber?.exceptAssistantId ?? null],
    );
    const ids = (v: readonly string[]) => new Set(v.map(num));
    return {
      folderIds: ids(r!.folder_ids),
      knowledgeBaseIds: ids(r!.knowledge_base_ids),
      phoneNumberIds: ids(r!.phone_number_ids),
      labelIds: ids(r!.label_ids),
      toolNames: new Map(r!.tools.map((t) => [num(t.id), t.name])),
      eventTypeIds: ids(r!.event_type_ids),
      assistantIds: ids(r!.assistant_ids),
      inboundNumberTaken: r!.inbound_taken,
    };
  }

  private async attach(
    id: number,
    config: AssistantConfig,
    replace: { toolIds: boolean; labelIds: boolean },
  ): Promise<void> {
    if (replace.toolIds) await this.replaceLinks('assistant_tools', 'tool_id', id, config.toolIds);
    if (replace.labelIds) await this.replaceLinks('assistant_labels', 'label_id', id, config.labelIds);
  }

  private async replaceLinks(
    table: string,
    column: string,
    assistantId: number,
    ids: readonly number[],
  ): Promise<void> {
    await this.db.query(`DELETE FROM ${table} WHERE assistant_id = $1`, [assistantId]);
    if (ids.length === 0) return;
    await this.db.query(
      `INSERT INTO ${table} (assistant_id, ${column}, position)
       SELECT $1, linked.id, linked.position - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS linked(id, position)`,
      [assistantId, ids],
    );
  }

  /**
   * The partial unique index settles races on an inbound number; a savepoint keeps the losing
   * write from aborting the caller's transaction.
   */
  private guardInboundNumber<T>(write: () => Promise<T>): Promise<T | InboundNumberTaken> {
    return unlessFails(this.db, write, isInboundNumberConflict, 'inbound_number_taken' as const);
  }
}
