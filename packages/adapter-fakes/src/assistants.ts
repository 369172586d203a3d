import { AssistantConfig, AssistantStatus, OwnedReferences, ReferenceQuery, WebhookState } from '@voiceplane/domain';
import {
  Assistant, AssistantFilter, AssistantRepository, Clock, InboundNumberTaken, OutboundAssistant, Page, PageRequest,
  ToolRepository,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';

/** Account records an assistant may point at, which live in other tables in the real store. */
export interface OwnedRecords {
  readonly folderIds?: readonly number[];
  readonly knowledgeBaseIds?: readonly number[];
  readonly phoneNumberIds?: readonly number[];
  readonly labelIds?: readonly number[];
  readonly eventTypeIds?: readonly number[];
}

type Row = { -readonly [K in keyof Assistant]: Assistant[K] } & { compliance_reason: string | null };

/**
 * Assistants in memory, with the semantics of the PostgreSQL repository (see the
 * assistant-repository contract). Tools come from `tools`; the other records an assistant may
 * point at are declared with `own`. Times the database takes from `now()` come from `clock`.
 */
export class InMemoryAssistantRepository implements AssistantRepository {
  private readonly rows = new Map<number, Row>();
  private readonly owned = new Map<number, Required<OwnedRecords>>();
  private lastId = 0;

  constructor(private readonly tools: ToolRepository, private readonly clock: Clock) {}

  /** Declares records the user owns (folders, knowledge bases, numbers, labels, event types). */
  own(userId: number, records: OwnedRecords): void {
    const before = this.ownedBy(userId);
    this.owned.set(userId, {
      folderIds: [...before.folderIds, ...(records.folderIds ?? [])],
      knowledgeBaseIds: [...before.knowledgeBaseIds, ...(records.knowledgeBaseIds ?? [])],
      phoneNumberIds: [...before.phoneNumberIds, ...(records.phoneNumberIds ?? [])],
      labelIds: [...before.labelIds, ...(records.labelIds ?? [])],
      eventTypeIds: [...before.eventTypeIds, ...(records.eventTypeIds ?? [])],
    });
  }

  async create(userId: number, config: AssistantConfig): Promise<Assistant | InboundNumberTaken> {
    if (this.takesInboundNumber(config, null)) return 'inbound_number_taken';
    const now = this.clock.now();
    const row: Row = { ...copy(config), id: ++this.lastId, user_id: userId, status: 'inactive', compliance_blocked: false, compliance_reason: null, created_at: now, updated_at: now };
    this.rows.set(row.id, row);
    return toAssistant(row);
  }

  async findOwned(userId: number, id: number): Promise<Assistant | null> {
    const row = this.rows.get(id);
    return row && row.user_id === userId ? toAssistant(row) : null;
  }

  async update(id: number, config: AssistantConfig, replace: { readonly toolIds: boolean; readonly labelIds: boolean }): Promise<Assistant | InboundNumberTaken> {
    const row = this.rows.get(id);
    if (!row) throw new Error(`Assistant ${id} vanished during an update.`);
    if (this.takesInboundNumber(config, id)) return 'inbound_number_taken';
    const { tool_ids, label_ids, ...columns } = copy(config);
    Object.assign(row, columns, { updated_at: this.clock.now() });
    if (replace.toolIds) row.tool_ids = tool_ids;
    if (replace.labelIds) row.label_ids = label_ids;
    return { ...toAssistant(row), tool_ids: [...config.tool_ids], label_ids: [...config.label_ids] };
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const row = this.rows.get(id);
    return row !== undefined && row.user_id === userId && this.rows.delete(id);
  }

  async list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>> {
    const matching = [...this.rows.values()]
      .filter((a) => a.user_id === userId
        && (!filter.type || a.type === filter.type)
        && (!filter.status || a.status === filter.status)
        && (!filter.folder_id || a.folder_id === filter.folder_id)
        && (!filter.label_id || a.label_ids.includes(filter.label_id)))
      .sort((a, b) => b.id - a.id);
    return pageOf(matching.map(toAssistant), page);
  }

  async listOutbound(userId: number): Promise<OutboundAssistant[]> {
    return [...this.rows.values()]
      .filter((a) => a.user_id === userId && a.type === 'outbound')
      .sort((a, b) => a.id - b.id)
      .map((a) => copy({
        id: a.id, user_id: a.user_id, name: a.name, type: a.type, mode: a.mode, status: a.status, voice_id: a.voice_id, language_id: a.language_id,
        timezone: a.timezone, initial_message: a.initial_message, system_prompt: a.system_prompt, variables: a.variables, webhook_url: a.webhook_url,
        is_webhook_active: a.is_webhook_active, created_at: a.created_at, updated_at: a.updated_at,
      }));
  }

  async setStatus(id: number, status: AssistantStatus): Promise<Assistant> {
    const row = this.rows.get(id);
    if (!row) throw new Error(`Assistant ${id} vanished during a status change.`);
    Object.assign(row, { status, updated_at: this.clock.now() });
    return toAssistant(row);
  }

  async setWebhook(id: number, webhook: WebhookState): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { is_webhook_active: webhook.is_webhook_active, webhook_url: webhook.webhook_url, updated_at: this.clock.now() });
  }

  async setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return false;
    Object.assign(row, { compliance_blocked: blocked, compliance_reason: reason, updated_at: this.clock.now() });
    return true;
  }

  async findOwnedReferences(userId: number, q: ReferenceQuery): Promise<OwnedReferences> {
    const owned = this.ownedBy(userId);
    const among = (ids: readonly number[], mine: readonly number[]) => new Set(ids.filter((id) => mine.includes(id)));
    const tools = await this.tools.listByIds(userId, q.toolIds);
    const inbound = q.inboundNumber;
    return {
      folderIds: among(q.folderIds, owned.folderIds),
      knowledgeBaseIds: among(q.knowledgeBaseIds, owned.knowledgeBaseIds),
      phoneNumberIds: among(q.phoneNumberIds, owned.phoneNumberIds),
      labelIds: among(q.labelIds, owned.labelIds),
      toolNames: new Map(tools.map((t) => [t.id, t.name])),
      eventTypeIds: among(q.eventTypeIds, owned.eventTypeIds),
      assistantIds: new Set(q.assistantIds.filter((id) => this.rows.get(id)?.user_id === userId)),
      inboundNumberTaken: inbound !== null && this.takesInboundNumber({ type: 'inbound', phone_number_id: inbound.phoneNumberId }, inbound.exceptAssistantId),
    };
  }

  /** Whether another inbound assistant (of any account, as the unique index) answers on the number `config` wants. */
  private takesInboundNumber(config: Pick<AssistantConfig, 'type' | 'phone_number_id'>, selfId: number | null): boolean {
    if (config.type !== 'inbound' || config.phone_number_id === null) return false;
    return [...this.rows.values()].some((a) => a.id !== selfId && a.type === 'inbound' && a.phone_number_id === config.phone_number_id);
  }

  private ownedBy(userId: number): Required<OwnedRecords> {
    return this.owned.get(userId) ?? { folderIds: [], knowledgeBaseIds: [], phoneNumberIds: [], labelIds: [], eventTypeIds: [] };
  }
}

function toAssistant(row: Row): Assistant {
  const { compliance_reason: _, ...assistant } = row;
  return copy(assistant);
}
