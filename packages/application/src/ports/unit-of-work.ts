/**
 * One database transaction. Repositories called inside `work` join it implicitly, so a state
 * change, its ledger entry and its outbox events commit or roll back together. Nested calls join
 * the outer transaction.
 */
export interface UnitOfWork {
  transaction<T>(work: () => Promise<T>): Promise<T>;
}
