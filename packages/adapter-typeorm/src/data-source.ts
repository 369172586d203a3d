import pg from 'pg';
import { DataSource } from 'typeorm';
import { entitySchemas } from './records';
import { migrations } from './migrations';

export interface DataSourceOptions {
  readonly url: string;
  /** Pool size per process. */
  readonly poolSize?: number;
  readonly applicationName?: string;
  /**
   * Each pooled connection is a session of its own, so it may keep named prepared statements
   * (`Database.query(…, { prepared: true })`). False for embedded PGlite, whose socket server runs
   * every connection on one session: two connections preparing one name would collide there.
   */
  readonly preparedStatements?: boolean;
  /**
   * False when the server is known not to hand a NOTIFY to other sessions (embedded PGlite): LISTEN
   * connections then skip their delivery probe, which could only time out (a second per listener,
   * spent on every start). Unset: probe.
   */
  readonly notificationsAcrossSessions?: boolean;
}

export function createDataSource(options: DataSourceOptions): DataSource {
  const dataSource: DataSource = new DataSource({
    type: 'postgres',
    // TypeORM opens its pool from this driver module; knowing the pool is what lets `Database`
    // run a statement outside a transaction without a QueryRunner, and a listener hold a session.
    driver: pgRecordingPools((pool) => pools.set(dataSource, pool)),
    url: options.url,
    entities: entitySchemas,
    migrations,
    migrationsTableName: 'schema_migrations',
    // Embedded PGlite cannot install extensions and production must not need superuser: ids and
    // uuids come from gen_random_uuid(), built into PostgreSQL 13+.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    logging: false,
    extra: { max: options.poolSize ?? 10, application_name: options.applicationName ?? 'voiceplane' },
  });
  if (options.preparedStatements) preparing.add(dataSource);
  if (options.notificationsAcrossSessions === false) withoutNotifications.add(dataSource);
  return dataSource;
}

const pools = new WeakMap<DataSource, pg.Pool>();
const preparing = new WeakSet<DataSource>();
const withoutNotifications = new WeakSet<DataSource>();

/** False when `dataSource` was made with `notificationsAcrossSessions: false`. */
export function mayDeliverNotifications(dataSource: DataSource): boolean {
  return !withoutNotifications.has(dataSource);
}

/** Whether `dataSource` was made with `preparedStatements`. */
export function preparesStatements(dataSource: DataSource): boolean {
  return preparing.has(dataSource);
}

/** The connection pool of an initialised DataSource made by `createDataSource` (TypeORM's own, not a second one). */
export function poolOf(dataSource: DataSource): pg.Pool {
  const pool = pools.get(dataSource);
  if (!pool) throw new Error('The DataSource has no pool: it was not made by createDataSource, or is not initialised.');
  return pool;
}

/** The `pg` module, except that every pool it opens is handed to `record` first. */
function pgRecordingPools(record: (pool: pg.Pool) => void): typeof pg {
  class RecordedPool extends pg.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      record(this);
    }
  }
  return { ...pg, Pool: RecordedPool };
}

/** Runs pending migrations, each in its own transaction; safe when several instances start at once. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  // A restart on an up-to-date schema (the common case) costs one lookup: no lock, no TypeORM
  // migration pass. A schema behind the known list takes the locked path below, as before.
  if ((await pendingMigrations(dataSource)).length === 0) return [];
  // An advisory lock serialises concurrent starters so two instances never race on the same DDL.
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(7214001)');
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(7214001)').catch(() => undefined);
    await runner.release();
  }
}

/** Names of migrations not yet applied (production refuses to start on a stale schema). */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const executed = new Set<string>();
  // TypeORM's migrations table has no record: its rows are named here.
  const exists = await dataSource.query<Array<{ t: string | null }>>(`SELECT to_regclass('schema_migrations') AS t`);
  if (exists[0]?.t) {
    for (const row of await dataSource.query<Array<{ name: string }>>('SELECT name FROM schema_migrations'))
      executed.add(row.name);
  }
  return migrations.map((m) => m.name).filter((name) => !executed.has(name));
}
