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

type Row = { -readonly [K in keyof Assistant]: Assistant[K] } & { complianceReason: string | null };

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
    const row: Row = { ...copy(config), id: ++this.lastId, userId: userId, status: 'inactive', complianceBlocked: false, complianceReason: null, createdAt: now, updatedAt: now };
    this.rows.set(row.id, row);
    return toAssistant(row);
  }

  async findOwned(userId: number, id: number): Promise<Assistant | null> {
    const row = this.rows.get(id);
    return row && row.userId === userId ? toAssistant(row) : null;
  }

  async update(id: number, config: AssistantConfig, replace: { readonly toolIds: boolean; readonly labelIds: boolean }): Promise<Assistant | InboundNumberTaken> {
    const row = this.rows.get(id);
    if (!row) throw new Error(`Assistant ${id} vanished during an update.`);
    if (this.takesInboundNumber(config, id)) return 'inbound_number_taken';
    const { toolIds, labelIds, ...columns } = copy(config);
    Object.assign(row, columns, { updatedAt: this.clock.now() });
    if (replace.toolIds) row.toolIds = toolIds;
    if (replace.labelIds) row.labelIds = labelIds;
    return { ...toAssistant(row), toolIds: [...config.toolIds], labelIds: [...config.labelIds] };
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const row = this.rows.get(id);
    return row !== undefined && row.userId === userId && this.rows.delete(id);
  }

  async list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>> {
    const matching = [...this.rows.values()]
      .filter((a) => a.userId === userId
        && (!filter.type || a.type === filter.type)
        && (!filter.status || a.status === filter.status)
        && (!filter.folderId || a.folderId === filter.folderId)
        && (!filter.labelId || a.labelIds.includes(filter.labelId)))
      .sort((a, b) => b.id - a.id);
    return pageOf(matching.map(toAssistant), page);
  }

  async listOutbound(userId: number): Promise<OutboundAssistant[]> {
    return [...this.rows.values()]
      .filter((a) => a.userId === userId && a.type === 'outbound')
      .sort((a, b) => a.id - b.id)
      .map((a) => copy({
        id: a.id, userId: a.userId, name: a.name, type: a.type, mode: a.mode, status: a.status, voiceId: a.voiceId, languageId: a.languageId,
        timezone: a.timezone, initialMessage: a.initialMessage, systemPrompt: a.systemPrompt, variables: a.variables, webhookUrl: a.webhookUrl,
        isWebhookActive: a.isWebhookActive, createdAt: a.createdAt, updatedAt: a.updatedAt,
      }));
  }

  async setStatus(id: number, status: AssistantStatus): Promise<Assistant> {
    const row = this.rows.get(id);
    if (!row) throw new Error(`Assistant ${id} vanished during a status change.`);
    Object.assign(row, { status, updatedAt: this.clock.now() });
    return toAssistant(row);
  }

  async setWebhook(id: number, webhook: WebhookState): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { isWebhookActive: webhook.isWebhookActive, webhookUrl: webhook.webhookUrl, updatedAt: this.clock.now() });
  }

  async setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return false;
    Object.assign(row, { complianceBlocked: blocked, complianceReason: reason, updatedAt: this.clock.now() });
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
      assistantIds: new Set(q.assistantIds.filter((id) => this.rows.get(id)?.userId === userId)),
      inboundNumberTaken: inbound !== null && this.takesInboundNumber({ type: 'inbound', phoneNumberId: inbound.phoneNumberId }, inbound.exceptAssistantId),
    };
  }

  /** Whether another inbound assistant (of any account, as the unique index) answers on the number `config` wants. */
  private takesInboundNumber(config: Pick<AssistantConfig, 'type' | 'phoneNumberId'>, selfId: number | null): boolean {
    if (config.type !== 'inbound' || config.phoneNumberId === null) return false;
    return [...this.rows.values()].some((a) => a.id !== selfId && a.type === 'inbound' && a.phoneNumberId === config.phoneNumberId);
  }

  private ownedBy(userId: number): Required<OwnedRecords> {
    return this.owned.get(userId) ?? { folderIds: [], knowledgeBaseIds: [], phoneNumberIds: [], labelIds: [], eventTypeIds: [] };
  }
}

function toAssistant(row: Row): Assistant {
  const { complianceReason: _, ...assistant } = row;
  return copy(assistant);
}
