import { ChatappInboundItem, ChatappInbox, IngressProvider, StoredInboundItem } from '@voiceplane/application';

/** The chat-app provider inbox in memory, with the semantics of the PostgreSQL one (see the inbox contract). */
export class InMemoryChatappInbox implements ChatappInbox {
  private readonly rows: { -readonly [K in keyof StoredInboundItem]: StoredInboundItem[K] }[] = [];

  async add(provider: IngressProvider, items: readonly ChatappInboundItem[], _receivedAt: Date): Promise<number[]> {
    const added: number[] = [];
    for (const item of items) {
      if (this.rows.some((r) => r.provider === provider && r.item.providerItemId === item.providerItemId)) continue;
      // A structured copy, as a stored row is: later changes to the caller's object do not reach it.
      this.rows.push({ id: this.rows.length + 1, provider, item: structuredClone(item), processedAt: null });
      added.push(this.rows.length);
    }
    return added;
  }

  async find(id: number): Promise<StoredInboundItem | null> {
    const row = this.rows.find((r) => r.id === id);
    return row ? { ...row, item: structuredClone(row.item) } : null;
  }

  async markProcessed(id: number, at: Date): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (row && row.processedAt === null) row.processedAt = new Date(at);
  }

  async purgeProcessedBefore(cutoff: Date, limit: number): Promise<number> {
    const due = this.rows
      .filter((r) => r.processedAt !== null && r.processedAt < cutoff)
      .sort((a, b) => (a.processedAt as Date).getTime() - (b.processedAt as Date).getTime())
      .slice(0, limit);
    for (const row of due) this.rows.splice(this.rows.indexOf(row), 1);
    return due.length;
  }
}
