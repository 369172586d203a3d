import { MessageTemplate, QualityRating, Sender, SenderStatus, TemplateStatus } from '@voiceplane/domain';
import {
  NewSender,
  NewTemplate,
  SenderCallingLine,
  SenderChanges,
  SenderListFilter,
  SenderReach,
  SenderRepository,
  TemplateListFilter,
  TemplateRepository,
} from '@voiceplane/application';
import { copy } from './copy';

/** Chat-app senders in memory, with the semantics of the PostgreSQL repository (see the chat-app repositories contract). */
export class InMemorySenderRepository implements SenderRepository {
  private readonly rows = new Map<
    number,
    {
      sender: Sender;
      ref: string | null;
      account: string | null;
      sealed: string | null;
      callingLine?: SenderCallingLine;
    }
  >();
  private lastId = 0;

  async create(s: NewSender): Promise<Sender | null> {
    if ([...this.rows.values()].some((r) => r.sender.phoneNumber === s.phoneNumber)) return null;
    const sender: Sender = {
      id: ++this.lastId,
      userId: s.userId,
      phoneNumber: s.phoneNumber,
      displayName: s.displayName,
      status: s.status,
      qualityRating: s.qualityRating,
      messagingLimit: s.messagingLimit,
      countryCode: s.countryCode,
      assistantId: s.assistantId,
      callingEnabled: s.callingEnabled,
      statusWebhookUrl: s.statusWebhookUrl,
      provider: s.provider,
      createdAt: new Date(s.now),
      updatedAt: new Date(s.now),
    };
    this.rows.set(sender.id, {
      sender,
      ref: s.providerSenderRef,
      account: s.providerAccountRef,
      sealed: s.sealedCredentials,
    });
    return copy(sender);
  }

  async findOwned(userId: number, id: number): Promise<Sender | null> {
    const row = this.rows.get(id);
    return row && row.sender.userId === userId ? copy(row.sender) : null;
  }

  async list(userId: number, filter: SenderListFilter): Promise<Sender[]> {
    return [...this.rows.values()]
      .map((r) => r.sender)
      .filter((s) => s.userId === userId && (filter === 'all' || s.status === filter))
      .sort((a, b) => a.id - b.id)
      .map(copy);
  }

  async update(userId: number, id: number, changes: SenderChanges, now: Date): Promise<Sender | null> {
    const row = this.rows.get(id);
    if (!row || row.sender.userId !== userId) return null;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    row.sender = { ...row.sender, ...defined, updatedAt: new Date(now) };
    return copy(row.sender);
  }

  async setStatus(
    id: number,
    status: SenderStatus,
    qualityRating: QualityRating | null,
    now: Date,
  ): Promise<Sender | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    row.sender = {
      ...row.sender,
      status,
      qualityRating: qualityRating ?? row.sender.qualityRating,
      updatedAt: new Date(now),
    };
    return copy(row.sender);
  }

  async setAccountStatus(providerAccountRef: string, status: SenderStatus, now: Date): Promise<Sender[]> {
    const rows = [...this.rows.values()]
      .filter((r) => r.account === providerAccountRef)
      .sort((a, b) => a.sender.id - b.sender.id);
    for (const row of rows) row.sender = { ...row.sender, status, updatedAt: new Date(now) };
    return rows.map((r) => copy(r.sender));
  }

  async setReach(id: number, reach: SenderReach, now: Date): Promise<Sender | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    row.sender = {
      ...row.sender,
      qualityRating: reach.qualityRating ?? row.sender.qualityRating,
      messagingLimit: reach.messagingLimit === null ? row.sender.messagingLimit : reach.messagingLimit.value,
      updatedAt: new Date(now),
    };
    return copy(row.sender);
  }

  async findByProviderRef(ref: string): Promise<Sender | null> {
    const rows = [...this.rows.values()];
    const row = rows.find((r) => r.ref === ref) ?? rows.find((r) => r.sender.phoneNumber === ref);
    return row ? copy(row.sender) : null;
  }

  async setCallingLine(id: number, line: SenderCallingLine): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.callingLine = { ...line, error: line.error?.slice(0, 255) ?? null };
  }

  async callingLine(id: number): Promise<SenderCallingLine | null> {
    const row = this.rows.get(id);
    return row ? { ...(row.callingLine ?? { trunkId: null, sealedSipPassword: null, error: null }) } : null;
  }

  async sealedCredentials(id: number): Promise<string | null> {
    return this.rows.get(id)?.sealed ?? null;
  }
}

/** Chat-app templates in memory; `senders` answers which user owns a sender. */
export class InMemoryTemplateRepository implements TemplateRepository {
  private readonly rows = new Map<number, { template: MessageTemplate; ref: string | null }>();
  private lastId = 0;

  constructor(private readonly senderOwner: (senderId: number) => Promise<number | null>) {}

  async create(t: NewTemplate): Promise<MessageTemplate | null> {
    if (
      [...this.rows.values()].some(
        (r) => r.template.senderId === t.senderId && r.template.name === t.name && r.template.language === t.language,
      )
    )
      return null;
    const template: MessageTemplate = {
      id: ++this.lastId,
      senderId: t.senderId,
      name: t.name,
      language: t.language,
      category: t.category,
      status: t.status,
      bodyText: t.bodyText,
      footerText: t.footerText,
      variables: [...t.variables],
      rejectionReason: null,
      createdAt: new Date(t.now),
      updatedAt: new Date(t.now),
    };
    this.rows.set(template.id, { template, ref: t.providerTemplateRef });
    return copy(template);
  }

  async findForSender(senderId: number, id: number): Promise<MessageTemplate | null> {
    const row = this.rows.get(id);
    return row && row.template.senderId === senderId ? copy(row.template) : null;
  }

  async findOwned(userId: number, id: number): Promise<MessageTemplate | null> {
    const row = this.rows.get(id);
    return row && (await this.senderOwner(row.template.senderId)) === userId ? copy(row.template) : null;
  }

  async list(senderId: number, filter: TemplateListFilter): Promise<MessageTemplate[]> {
    return [...this.rows.values()]
      .map((r) => r.template)
      .filter((t) => t.senderId === senderId && (filter === 'all' || t.status === filter))
      .sort((a, b) => a.id - b.id)
      .map(copy);
  }

  async setStatus(
    id: number,
    status: TemplateStatus,
    rejectionReason: string | null,
    now: Date,
  ): Promise<MessageTemplate | null> {
    const row = this.rows.get(id);
    if (!row) return null;
    row.template = {
      ...row.template,
      status,
      rejectionReason: status === 'rejected' ? rejectionReason : null,
      updatedAt: new Date(now),
    };
    return copy(row.template);
  }

  async findByProviderRef(ref: string): Promise<MessageTemplate | null> {
    const row = [...this.rows.values()].find((r) => r.ref === ref);
    return row ? copy(row.template) : null;
  }
}
