import { ChatappCallCandidate, ChatappCallReport } from '@voiceplane/domain';
import { ChatappCallReportChange, ChatappCallReportKey, ChatappCallReportRepository } from '@voiceplane/application';
import type { InMemoryCallRepository } from './calls';
import { copy } from './copy';
import { RowLocks } from './row-locks';

/** Chat-app call reports in memory, with the semantics of the PostgreSQL repository (see its contract suite). */
export class InMemoryChatappCallReportRepository implements ChatappCallReportRepository {
  private readonly byCall = new Map<number, ChatappCallReport>();
  // One lock for every change: the id's and the contact's locks of PostgreSQL, coarser.
  private readonly locks = new RowLocks<'all'>();

  constructor(private readonly calls: Pick<InMemoryCallRepository, 'chatappCallsTo'>) {}

  async findByCallId(callId: number): Promise<ChatappCallReport | null> {
    const stored = this.byCall.get(callId);
    return stored ? copy(stored) : null;
  }

  record<A>(
    key: ChatappCallReportKey,
    decide: (
      current: ChatappCallReport | null,
      candidates: readonly ChatappCallCandidate[],
    ) => ChatappCallReportChange<A>,
  ): Promise<A> {
    return this.locks.hold('all', async () => {
      const found = [...this.byCall.values()].find((r) => r.metaCallId === key.metaCallId);
      const current = found ? copy(found) : null;
      const candidates =
        current !== null || key.customerPhone === null
          ? []
          : this.calls
              .chatappCallsTo(key.senderId, key.customerPhone)
              .filter((c) => !this.byCall.has(c.id) && (c.finishedAt === null || c.finishedAt >= key.endedSince))
              .slice(0, 20)
              .map((c) => ({ callId: c.id, status: c.status, createdAt: c.createdAt, finishedAt: c.finishedAt }));
      const { next, answer } = decide(current, candidates);
      if (next !== null) {
        const other = this.byCall.get(next.callId);
        if (current === null && other !== undefined)
          throw new Error(`call ${next.callId} is bound to ${other.metaCallId} already`);
        this.byCall.set(next.callId, copy(next));
      }
      return answer;
    });
  }
}
