import { randomUUID } from 'node:crypto';
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
  Clock,
  InboundNumberTaken,
  Outbox,
  Page,
  PageRequest,
  ToolRepository,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';
import { RowLocks } from './row-locks';

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
  private readonly locks = new RowLocks<number>();
  private lastId = 0;

  constructor(
    private readonly tools: ToolRepository,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

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
    const row: Row = {
      ...copy(config),
      id: ++this.lastId,
      uuid: randomUUID(),
      userId: userId,
      status: 'inactive',
      complianceBlocked: false,
      complianceReason: null,
      inboundWebhookUrl: null,
      createdAt: now,
      updatedAt: now,
    };
    this.rows.set(row.id, row);
    return toAssistant(row);
  }

  async findOwned(userId: number, id: number): Promise<Assistant | null> {
    const row = this.rows.get(id);
    return row && row.userId === userId ? toAssistant(row) : null;
  }

  async findOwnedByUuid(userId: number, uuid: string): Promise<Assistant | null> {
    const row = [...this.rows.values()].find((r) => r.uuid === uuid);
    return row && row.userId === userId ? toAssistant(row) : null;
  }

  update<E>(
    userId: number,
    id: number,
    decide: (current: Assistant) => Promise<Result<AssistantChange, E>>,
  ): Promise<Result<Assistant, E | AssistantNotFound | InboundNumberTaken>> {
    return this.locks.hold(id, async () => {
      const current = await this.findOwned(userId, id);
      if (!current) return err({ code: 'not_found' as const });
      const decision = await decide(current);
      if (!decision.ok) return decision;
      const { write, events = [] } = decision.value;
      if (write !== null) {
        if (write.kind === 'config' && this.takesInboundNumber(write.config, id))
          return err('inbound_number_taken' as const);
        this.apply(this.rows.get(id)!, write);
      }
      await this.outbox.add(events);
      return ok(toAssistant(this.rows.get(id)!));
    });
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const row = this.rows.get(id);
    return row !== undefined && row.userId === userId && this.rows.delete(id);
  }

  async list(userId: number, page: PageRequest, filter: AssistantFilter): Promise<Page<Assistant>> {
    return pageOf(
      this.matching(userId, filter)
        .sort((a, b) => b.id - a.id)
        .map(toAssistant),
      page,
    );
  }

  async listAll(userId: number, filter: AssistantFilter): Promise<Assistant[]> {
    return this.matching(userId, filter)
      .sort((a, b) => a.id - b.id)
      .map(toAssistant);
  }

  async listOutbound(userId: number): Promise<OutboundAssistant[]> {
    return [...this.rows.values()]
      .filter((a) => a.userId === userId && a.type === 'outbound')
      .sort((a, b) => a.id - b.id)
      .map((a) =>
        copy({
          id: a.id,
          userId: a.userId,
          name: a.name,
          type: a.type,
          mode: a.mode,
          status: a.status,
          voiceId: a.voiceId,
          languageId: a.languageId,
          timezone: a.timezone,
          initialMessage: a.initialMessage,
          systemPrompt: a.systemPrompt,
          variables: a.variables,
          webhookUrl: a.webhookUrl,
          isWebhookActive: a.isWebhookActive,
          createdAt: a.createdAt,
          updatedAt: a.updatedAt,
        }),
      );
  }

  async setCompliance(id: number, blocked: boolean, reason: string | null): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row) return false;
    Object.assign(row, { complianceBlocked: blocked, complianceReason: reason, updatedAt: this.clock.now() });
    return true;
  }

  /** A folder or label was deleted: its assistants stay and leave it, as the foreign keys make them. */
  leaveGroup(kind: 'folders' | 'labels', groupId: number): void {
    for (const row of this.rows.values()) {
      if (kind === 'folders' && row.folderId === groupId) row.folderId = null;
      if (kind === 'labels') row.labelIds = row.labelIds.filter((id) => id !== groupId);
    }
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
      inboundNumberTaken:
        inbound !== null &&
        this.takesInboundNumber({ type: 'inbound', phoneNumberId: inbound.phoneNumberId }, inbound.exceptAssistantId),
    };
  }

  private apply(row: Row, write: AssistantWrite): void {
    switch (write.kind) {
      case 'status':
        Object.assign(row, { status: write.status });
        break;
      case 'webhook':
        Object.assign(row, { isWebhookActive: write.webhook.isWebhookActive, webhookUrl: write.webhook.webhookUrl });
        break;
      case 'webhook_url':
        Object.assign(
          row,
          write.target === 'inbound' ? { inboundWebhookUrl: write.url } : { conversationEndedWebhookUrl: write.url },
        );
        break;
      case 'config': {
        const { toolIds, labelIds, ...columns } = copy(write.config);
        Object.assign(row, columns);
        if (write.replace.toolIds) row.toolIds = toolIds;
        if (write.replace.labelIds) row.labelIds = labelIds;
      }
    }
    row.updatedAt = this.clock.now();
  }

  private matching(userId: number, filter: AssistantFilter): Row[] {
    return [...this.rows.values()].filter(
      (a) =>
        a.userId === userId &&
        (!filter.type || a.type === filter.type) &&
        (!filter.status || a.status === filter.status) &&
        (!filter.folderId || a.folderId === filter.folderId) &&
        (!filter.labelId || a.labelIds.includes(filter.labelId)),
    );
  }

  /** Whether another inbound assistant (of any account, as the unique index) answers on the number `config` wants. */
  private takesInboundNumber(config: Pick<AssistantConfig, 'type' | 'phoneNumberId'>, selfId: number | null): boolean {
    if (config.type !== 'inbound' || config.phoneNumberId === null) return false;
    return [...this.rows.values()].some(
      (a) => a.id !== selfId && a.type === 'inbound' && a.phoneNumberId === config.phoneNumberId,
    );
  }

  private ownedBy(userId: number): Required<OwnedRecords> {
    return (
      this.owned.get(userId) ?? {
        folderIds: [],
        knowledgeBaseIds: [],
        phoneNumberIds: [],
        labelIds: [],
        eventTypeIds: [],
      }
    );
  }
}

function toAssistant(row: Row): Assistant {
  const { complianceReason: _, ...assistant } = row;
  return copy(assistant);
}
