import { InMemoryChatappInbox } from '@voiceplane/adapter-fakes';
import type { ClaimedJob, NewJob } from '../events';
import { ChatappIngress, chatappInboxJobs, CHATAPP_INBOX_JOB } from './chatapp-ingress';
import type { ChatappInboundItem } from './provider-ports';

const now = new Date('2026-03-01T10:00:00.000Z');
const clock = { now: () => now };
const uow = { transaction: <T>(work: () => Promise<T>) => work() };
const log = { info: jest.fn(), warn: jest.fn(), error: jest.fn() };
const status = (id: string): ChatappInboundItem => ({
  kind: 'message_status',
  providerItemId: id,
  providerMessageId: 'wamid.out',
  status: 'sent',
  at: now,
  errorCode: null,
  errorMessage: null,
});
const job = (payload: unknown): ClaimedJob => ({
  id: 1,
  kind: CHATAPP_INBOX_JOB,
  key: null,
  payload,
  attempts: 1,
  leaseToken: 't',
});

describe('chat-app ingress', () => {
  it('queues one job per new item and none for duplicates or an empty notification', async () => {
    const inbox = new InMemoryChatappInbox();
    const scheduled: NewJob[] = [];
    const ingress = new ChatappIngress(
      uow,
      inbox,
      { schedule: async (j) => void scheduled.push(j), cancel: async () => {} },
      clock,
    );
    expect(await ingress.receive('whatsapp', [status('a:sent'), status('b:sent')])).toBe(2);
    expect(await ingress.receive('whatsapp', [status('b:sent'), status('c:sent')])).toBe(1);
    expect(await ingress.receive('whatsapp', [])).toBe(0);
    expect(scheduled).toEqual(
      [1, 2, 3].map((id) => ({ kind: CHATAPP_INBOX_JOB, key: `chatapp-inbox:${id}`, payload: { id }, runAt: now })),
    );
  });

  it('hands an item to the handler once, and leaves it unprocessed for a retry when the handler fails', async () => {
    const inbox = new InMemoryChatappInbox();
    await inbox.add('whatsapp', [status('a:sent')], now);
    const handle = jest.fn().mockRejectedValueOnce(new Error('database busy')).mockResolvedValue(undefined);
    const jobs = chatappInboxJobs(inbox, () => ({ handle }), clock, log);
    await expect(jobs.handle(job({ id: 1 }))).rejects.toThrow('database busy');
    expect((await inbox.find(1))!.processedAt).toBeNull();
    await jobs.handle(job({ id: 1 }));
    await jobs.handle(job({ id: 1 }));
    expect(handle).toHaveBeenCalledTimes(2);
    expect((await inbox.find(1))!.processedAt).toEqual(now);
    await jobs.handle(job({ id: 42 }));
    await jobs.handle(job(null));
    expect(handle).toHaveBeenCalledTimes(2);
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});
