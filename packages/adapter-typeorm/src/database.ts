import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { TransactionOptions, UnitOfWork } from '@voiceplane/application';
import { poolOf, preparesStatements } from './data-source';

/**
 * The DataSource plus the current transaction. Repositories ask `manager` for every query, so
 * whatever runs inside `transaction()` joins it without passing a handle through the ports.
 */
interface Transaction {
  readonly manager: EntityManager;
  /** Run once the outermost transaction has committed; dropped on rollback. */
  readonly committed: Array<() => void>;
  /** Set by the transaction (outermost or nested) that concludes its use case: that use case's result. */
  conclusion: { readonly result: unknown } | null;
}

/** Run last inside a transaction; `conclusion` is the concluding result when the transaction had one. */
export type CommitStep = (conclusion: { readonly result: unknown } | null) => Promise<void>;

export interface QueryOptions {
  /**
   * Where the DataSource allows it (`preparedStatements`), run as a
   * named prepared statement: each pooled connection parses and plans it once instead of on every
   * call. For the few statements of a hot path, whose texts are a handful (every distinct text
   * stays prepared on every connection of the pool). Measured on webhook delivery: parsing and
   * planning its CTEs was a third of the pipeline's throughput.
   */
  readonly prepared?: boolean;
}

export class Database implements UnitOfWork {
  private readonly current = new AsyncLocalStorage<Transaction>();
  /** Statements to run inside every outermost transaction begun within `withCommitStep`, just before it commits. */
  private readonly commitSteps = new AsyncLocalStorage<CommitStep>();
  private readonly statementNames = new Map<string, string>();

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
   * Always the result rows (TypeORM's own `query` answers `[rows, count]` for UPDATE/DELETE), typed
   * `T`: a record's row interface or a `Pick` of it (see records/record.ts), or a named shape for a
   * computed column. The default, `unknown`, lets a statement's result be discarded but no column of
   * it be read (tools/boundaries/untyped-rows.ts also refuses an untyped read whose rows are used).
   * Outside a transaction the statement goes straight to the DataSource's pool: no QueryRunner is
   * created per statement, which matters on the per-request auth and rate-limit queries.
   */
  async query<T = unknown>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T[]> {
    const runner = this.current.getStore()?.manager.queryRunner;
    const named =
      options.prepared && preparesStatements(this.dataSource)
        ? { name: this.statementName(sql), text: sql, values: params }
        : null;
    type Row = T & pg.QueryResultRow;
    if (!runner)
      return (
        named ? await poolOf(this.dataSource).query<Row>(named) : await poolOf(this.dataSource).query<Row>(sql, params)
      ).rows;
    // Inside a transaction the statement goes straight to the transaction's connection: TypeORM's
    // QueryRunner.query adds several awaits and event broadcasts per statement (none are used here),
    // which on a send's ten statements was measurable. Errors keep TypeORM's shape.
    const client = (await runner.connect()) as pg.PoolClient;
    try {
      return (named ? await client.query<Row>(named) : await client.query<Row>(sql, params)).rows;
    } catch (e) {
      throw new QueryFailedError(sql, params, e as Error);
    }
  }

  /** One name per statement text, so a connection never sees one name with two texts. */
  private statementName(sql: string): string {
    let name = this.statementNames.get(sql);
    if (!name) {
      name = `vp_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      this.statementNames.set(sql, name);
    }
    return name;
  }

  async one<T = unknown>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<T | null> {
    const rows = await this.query<T>(sql, params, options);
    return rows[0] ?? null;
  }

  /**
   * Runs `run` so that every outermost transaction it (or anything it starts) begins runs `step`
   * last, inside that transaction: what `step` writes commits exactly with the work, or not at all.
   */
  withCommitStep<T>(step: CommitStep, run: () => T): T {
    return this.commitSteps.run(step, run);
  }

  async transaction<T>(work: () => Promise<T>, options: TransactionOptions<T> = {}): Promise<T> {
    const run = async (tx: Transaction) => {
      const result = await work();
      const { concludes } = options;
      if (concludes) tx.conclusion = { result: typeof concludes === 'function' ? await concludes(result) : result };
      return result;
    };
    const outer = this.current.getStore();
    if (outer) return run(outer);
    const committed: Array<() => void> = [];
    const step = this.commitSteps.getStore();
    const result = await this.dataSource.transaction((manager) => {
      const tx: Transaction = { manager, committed, conclusion: null };
      return this.current.run(tx, async () => {
        const done = await run(tx);
        if (step) await step(tx.conclusion);
        return done;
      });
    });
    for (const then of committed) then();
    return result;
  }
}
