import { err, ok, Result, TopUp, TopUpStatus } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { ReconcilableTopUp, TopUpRepository } from './repositories';

/**
 * What is read of top-ups: an account reaches only its own (another account's is not found), and
 * operators see every top-up the reconciliation sweep left to them, whoever owns it.
 */
export class TopUpQueries {
  constructor(private readonly topUps: TopUpRepository) {}

  /** Newest first, optionally of one status. */
  list(userId: number, page: PageRequest, status?: TopUpStatus): Promise<Page<TopUp>> {
    return this.topUps.list(userId, page, status);
  }

  async get(userId: number, id: number): Promise<Result<TopUp, 'top_up_not_found'>> {
    const topUp = await this.topUps.find(userId, id);
    return topUp === null ? err('top_up_not_found') : ok(topUp);
  }

  /** Oldest first, of every account: the operators' work list. */
  unreconcilable(): Promise<ReconcilableTopUp[]> {
    return this.topUps.listUnreconcilable();
  }
}
