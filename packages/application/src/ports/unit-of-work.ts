export interface TransactionOptions<T> {
  /**
   * This transaction commits the outcome its use case is answered with: `true` when `work` resolves
   * to the use case's own result, or how that result is made from what `work` resolves to. Whoever
   * started the use case may record its answer to that result in this same commit (an idempotent
   * HTTP request does), so the effect and the answer to it are never found apart after a crash.
   * A function may resolve later: it runs inside the transaction, so what it reads is what commits.
   */
  readonly concludes?: boolean | ((result: T) => unknown);
}

/**
 * One database transaction. Repositories called inside `work` join it implicitly, so a state
 * change, its ledger entry and its outbox events commit or roll back together. Nested calls join
 * the outer transaction.
 */
export interface UnitOfWork {
  transaction<T>(work: () => Promise<T>, options?: TransactionOptions<T>): Promise<T>;
}

/** Options of a transaction that commits its use case's own result (`work` resolves to it). */
export const CONCLUDES: TransactionOptions<unknown> = { concludes: true };
