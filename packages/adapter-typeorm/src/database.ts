import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '@voiceplane/application';
import { poolOf } from './data-source';

/**
 * The DataSource plus the current transaction. Repositories ask `manager` for every query, so
 * whatever runs inside `transaction()` joins it without passing a handle through the ports.
 */
export class Database implements UnitOfWork {
  private readonly current = new AsyncLocalStorage<EntityManager>();

  constructor(readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.current.getStore() ?? this.dataSource.manager;
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
    const tx = this.current.getStore();
    if (tx?.queryRunner) return (await tx.queryRunner.query(sql, params, true)).records as T[];
    return (await poolOf(this.dataSource).query(sql, params)).rows as T[];
  }

  async one<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T | null> {
    const rows = await this.query<T>(sql, params);
    return rows[0] ?? null;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.inTransaction) return work();
    return this.dataSource.transaction((manager) => this.current.run(manager, work));
  }
}
