import { BillingProvider, LOST_ANSWER_REASON, TopUp, TopUpStatus } from '@voiceplane/domain';
import { Page, PageRequest, ReconcilableTopUp, TopUpRepository } from '@voiceplane/application';
import { copy } from '../copy';
import { pageOf } from '../paging';

/** Top-ups in memory; ids come from a sequence as the table's does. */
export class InMemoryTopUpRepository implements TopUpRepository {
  private readonly rows = new Map<
    number,
    { topUp: TopUp; providerReference: string | null; unreconcilable?: string | null; checkedAt?: Date | null }
  >();
  private sequence = 0;

  async reserveId(): Promise<number> {
    this.sequence += 1;
    return this.sequence;
  }

  async insert(topUp: TopUp, providerReference: string | null): Promise<void> {
    if (this.rows.has(topUp.id)) throw new Error(`top-up ${topUp.id} exists`);
    this.rows.set(topUp.id, { topUp: copy(topUp), providerReference });
  }

  async find(userId: number, id: number): Promise<TopUp | null> {
    const row = this.rows.get(id);
    return row && row.topUp.userId === userId ? copy(row.topUp) : null;
  }

  async findByProviderReference(provider: BillingProvider, providerReference: string): Promise<TopUp | null> {
    const row = [...this.rows.values()].find(
      (r) => r.topUp.provider === provider && r.providerReference === providerReference,
    );
    return row ? copy(row.topUp) : null;
  }

  async list(userId: number, page: PageRequest, status?: TopUpStatus): Promise<Page<TopUp>> {
    const mine = [...this.rows.values()]
      .map((r) => r.topUp)
      .filter((t) => t.userId === userId && (status === undefined || t.status === status));
    return pageOf(mine.sort((a, b) => b.id - a.id).map(copy), page);
  }

  async lock(id: number): Promise<TopUp | null> {
    const row = this.rows.get(id);
    return row ? copy(row.topUp) : null;
  }

  async saveSettled(topUp: TopUp): Promise<void> {
    const row = this.rows.get(topUp.id);
    if (row)
      row.topUp = {
        ...row.topUp,
        status: topUp.status,
        failureReason: topUp.failureReason,
        completedAt: topUp.completedAt,
      };
  }

  async setProviderReference(id: number, providerReference: string): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.providerReference = providerReference.slice(0, 255);
  }

  async awaitingReconciliation(pendingBefore: Date, checkedBefore: Date, limit: number): Promise<ReconcilableTopUp[]> {
    return [...this.rows.values()]
      .filter(
        (r) =>
          !r.unreconcilable &&
          (!r.checkedAt || r.checkedAt <= checkedBefore) &&
          ((r.topUp.status === 'pending' && r.topUp.createdAt <= pendingBefore) ||
            (r.topUp.status === 'failed' &&
              r.topUp.trigger === 'auto' &&
              r.topUp.failureReason === LOST_ANSWER_REASON)),
      )
      .sort((a, b) => a.topUp.id - b.topUp.id)
      .slice(0, limit)
      .map(reconcilable);
  }

  async markChecked(id: number, at: Date, unreconcilable: string | null): Promise<void> {
    const row = this.rows.get(id);
    if (row) Object.assign(row, { checkedAt: at, unreconcilable });
  }

  async listUnreconcilable(): Promise<ReconcilableTopUp[]> {
    return [...this.rows.values()]
      .filter((r) => r.unreconcilable)
      .sort((a, b) => a.topUp.id - b.topUp.id)
      .map(reconcilable);
  }

  providerReferenceOf(id: number): string | null {
    return this.rows.get(id)?.providerReference ?? null;
  }
}

function reconcilable(r: {
  topUp: TopUp;
  providerReference: string | null;
  unreconcilable?: string | null;
  checkedAt?: Date | null;
}): ReconcilableTopUp {
  return {
    topUp: copy(r.topUp),
    providerReference: r.providerReference,
    unreconcilable: r.unreconcilable ?? null,
    checkedAt: r.checkedAt ?? null,
  };
}
