import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@voiceplane/application';
import { poolOf } from './data-source';

/**
 * The DataSource plus the current transaction. Repositories ask `manager` for every query, so
 * whatever runs inside `transaction()` joins it without passing a handle through the ports.
 */
interface Transaction {
  readonly manager: EntityManager;
  /** Run once the outermost transaction has committed; dropped on rollback. */
  readonly committed: Array<() => void>;
}

export class Database implements UnitOfWork {
  private readonly current = new AsyncLocalStorage<Transaction>();

  constructor(readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  /** `then` runs after the current transaction commits (at once outside one); never on rollback. */
  afterCommit(then: () => void): void {
    const tx = this.current.getStore();
    if (tx) tx.committed.push(then);
    else then();
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /**
   * Always the result rows (TypeORM's own `query` answers `[rows, count]` for UPDATE/DELETE).
   * Outside a transaction the statement goes straight to the DataSource's pool: no QueryRunner is
   * created per statement, which matters on the per-request auth and rate-limit queries.
   */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const tx = this.current.getStore()?.manager;
    if (tx?.queryRunner) return (await tx.queryRunner.query(sql, params, true)).records as T[];
    return (await poolOf(this.dataSource).query(sql, params)).rows as T[];
  }

  async one<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T | null> {
    const rows = await this.query<T>(sql, params);
    return rows[0] ?? null;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    const committed: Array<() => void> = [];
    const result = await this.dataSource.transaction((manager) => this.current.run({ manager, committed }, work));
    for (const then of committed) then();
    return result;
  }
}
