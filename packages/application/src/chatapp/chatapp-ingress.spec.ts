import type { ClaimedJob, NewJob } from '../events/ports';
import { ChatappIngress, chatappInboxJobs, CHATAPP_INBOX_JOB } from './chatapp-ingress';
import type { ChatappInbox, IngressProvider, StoredInboundItem } from './ingress-ports';
import type { ChatappInboundItem } from './provider-ports';

/** An inbox in memory with the real one's dedup rule (PostgreSQL's is proven in adapter-typeorm). */
class MemoryInbox implements ChatappInbox {
  readonly rows: StoredInboundItem[] = [];
  async add(provider: IngressProvider, items: readonly ChatappInboundItem[]): Promise<number[]> {
    const added: number[] = [];
    for (const item of items) {
      if (this.rows.some((r) => r.provider === provider && r.item.providerItemId === item.providerItemId)) continue;
      this.rows.push({ id: this.rows.length + 1, provider, item, processedAt: null });
      added.push(this.rows.length);
    }
    return added;
  }
  async find(id: number) {
    return this.rows.find((r) => r.id === id) ?? null;
  }
  async markProcessed(id: number, at: Date) {
    const i = this.rows.findIndex((r) => r.id === id);
    this.rows[i] = { ...this.rows[i], processedAt: at };
  }
  async purgeProcessedBefore() {
    return 0;
  }
}

const now = new Date('2026-03-01T10:00:00.000Z');
const clock = { now: () => now };
const uow = { transaction: <T>(work: () => Promise<T>) => work() };
const log = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
const status = (id: string): ChatappInboundItem => ({ kind: 'message_status', providerItemId: id, providerMessageId: 'wamid.out', status: 'sent', at: now, errorCode: null, errorMessage: null });
const job = (payload: unknown): ClaimedJob => ({ id: 1, kind: CHATAPP_INBOX_JOB, key: null, payload, attempts: 1, leaseToken: 't' });

describe('chat-app ingress', () => {
  it('queues one job per new item and none for duplicates or an empty notification', async () => {
    const inbox = new MemoryInbox();
    const scheduled: NewJob[] = [];
    const ingress = new ChatappIngress(uow, inbox, { schedule: async (j) => void scheduled.push(j), cancel: async () => {} }, clock);
    expect(await ingress.receive('whatsapp', [status('a:sent'), status('b:sent')])).toBe(2);
    expect(await ingress.receive('whatsapp', [status('b:sent'), status('c:sent')])).toBe(1);
    expect(await ingress.receive('whatsapp', [])).toBe(0);
    expect(scheduled).toEqual([1, 2, 3].map((id) => ({ kind: CHATAPP_INBOX_JOB, key: `chatapp-inbox:${id}`, payload: { id }, runAt: now })));
  });

  it('hands an item to the handler once, and leaves it unprocessed for a retry when the handler fails', async () => {
    const inbox = new MemoryInbox();
    await inbox.add('whatsapp', [status('a:sent')]);
    const handle = jest.fn().mockRejectedValueOnce(new Error('database busy')).mockResolvedValue(undefined);
    const jobs = chatappInboxJobs(inbox, () => ({ handle }), clock, log);
    await expect(jobs.handle(job({ id: 1 }))).rejects.toThrow('database busy');
    expect(inbox.rows[0].processedAt).toBeNull();
    await jobs.handle(job({ id: 1 }));
    await jobs.handle(job({ id: 1 }));
    expect(handle).toHaveBeenCalledTimes(2);
    expect(inbox.rows[0].processedAt).toEqual(now);
    await jobs.handle(job({ id: 42 }));
    await jobs.handle(job(null));
    expect(handle).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
