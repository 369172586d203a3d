import { TransactionOptions, UnitOfWork } from '@voiceplane/application';

/**
 * The fakes write at once and keep what they wrote, so a transaction here only runs its work:
 * nothing rolls back when it throws. Use cases decide before they write, which is what the unit
 * tests exercise; rollback belongs to the PostgreSQL lane.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  transaction<T>(work: () => Promise<T>, _options?: TransactionOptions<T>): Promise<T> {
    return work();
  }
}
