import type { Clock } from '../ports';
import type { UnitOfWork } from '../ports';
import type { JobHandler, JobScheduler, WorkLogger } from '../events';
import type { ChatappInbox, IngressProvider } from './ingress-ports';
import type { ChatappInboundHandler, ChatappInboundItem } from './provider-ports';

/** The scheduler job that hands one inbox item to the chat-app core. */
export const CHATAPP_INBOX_JOB = 'chatapp.inbox.item';

const inboxJobKey = (id: number) => `chatapp-inbox:${id}`;

/**
 * Provider ingress: verified items go into the inbox and the provider gets its
 * answer at once; the work happens later, one scheduler job per new item. The inbox rows and
 * their jobs commit together, so an acknowledged item is never lost and a duplicate never queued.
 */
export class ChatappIngress {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly inbox: ChatappInbox,
    private readonly jobs: JobScheduler,
    private readonly clock: Clock,
  ) {}

  /** Answers how many of the items were new. */
  async receive(provider: IngressProvider, items: readonly ChatappInboundItem[]): Promise<number> {
    if (items.length === 0) return 0;
    const now = this.clock.now();
    return this.uow.transaction(async () => {
      const stored = await this.inbox.add(provider, items, now);
      for (const id of stored)
        await this.jobs.schedule({ kind: CHATAPP_INBOX_JOB, key: inboxJobKey(id), payload: { id }, runAt: now });
      return stored.length;
    });
  }
}

/**
 * Runs inbox items through the chat-app core's handler. The handler is looked up per job, so the
 * core may be composed after this module. A handler that throws leaves the item unprocessed and
 * the scheduler retries it with backoff; the job's lease keeps two workers off the same item. A
 * crash between the handler's effects and the processed mark hands the item over once more, so
 * the handler treats `providerItemId` as its idempotency key.
 */
export function chatappInboxJobs(
  inbox: ChatappInbox,
  handler: () => ChatappInboundHandler,
  clock: Clock,
  log: WorkLogger,
): JobHandler {
  return {
    kind: CHATAPP_INBOX_JOB,
    async handle(job) {
      const id = (job.payload as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') {
        log.warn({ jobId: job.id }, 'chat-app inbox job without an item id: dropped');
        return;
      }
      const stored = await inbox.find(id);
      if (stored === null || stored.processedAt !== null) return;
      await handler().handle(stored.item);
      await inbox.markProcessed(id, clock.now());
    },
  };
}
