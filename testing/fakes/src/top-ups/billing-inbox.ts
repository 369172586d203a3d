import { BillingProvider } from '@voiceplane/domain';
import { BillingInbox, ProviderBillingEvent, StoredBillingEvent } from '@voiceplane/application';
import { copy } from '../copy';

export class InMemoryBillingInbox implements BillingInbox {
  private readonly rows: StoredBillingEvent[] = [];
  private sequence = 0;

  async store(provider: BillingProvider, e: ProviderBillingEvent): Promise<number | null> {
    if (this.rows.some((r) => r.provider === provider && r.id === e.id)) return null;
    this.sequence += 1;
    const inboxId = this.sequence;
    this.rows.push({ inboxId, provider, id: e.id, type: e.type, payload: copy(e.payload), processedAt: null });
    return inboxId;
  }

  async find(inboxId: number): Promise<StoredBillingEvent | null> {
    const row = this.rows.find((r) => r.inboxId === inboxId);
    return row ? copy(row) : null;
  }

  async purgeProcessedBefore(cutoff: Date, limit: number): Promise<number> {
    const old = this.rows.filter((r) => r.processedAt !== null && r.processedAt < cutoff).slice(0, limit);
    for (const row of old) this.rows.splice(this.rows.indexOf(row), 1);
    return old.length;
  }

  async markProcessed(inboxId: number, at: Date): Promise<void> {
    const i = this.rows.findIndex((r) => r.inboxId === inboxId);
    if (i >= 0 && this.rows[i].processedAt === null) this.rows[i] = { ...this.rows[i], processedAt: at };
  }
}
