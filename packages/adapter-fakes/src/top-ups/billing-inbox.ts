import { BillingProvider } from '@voiceplane/domain';
import { BillingInbox, ProviderBillingEvent, StoredBillingEvent } from '@voiceplane/application';
import { copy } from '../copy';

export class InMemoryBillingInbox implements BillingInbox {
  private readonly rows: StoredBillingEvent[] = [];

  async store(provider: BillingProvider, e: ProviderBillingEvent): Promise<number | null> {
    if (this.rows.some((r) => r.provider === provider && r.id === e.id)) return null;
    const inboxId = this.rows.length + 1;
    this.rows.push({ inboxId, provider, id: e.id, type: e.type, payload: copy(e.payload), processedAt: null });
    return inboxId;
  }

  async find(inboxId: number): Promise<StoredBillingEvent | null> {
    const row = this.rows.find((r) => r.inboxId === inboxId);
    return row ? copy(row) : null;
  }

  async markProcessed(inboxId: number, at: Date): Promise<void> {
    const i = this.rows.findIndex((r) => r.inboxId === inboxId);
    if (i >= 0 && this.rows[i].processedAt === null) this.rows[i] = { ...this.rows[i], processedAt: at };
  }
}
