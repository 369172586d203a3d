import { DataSource } from 'typeorm';
import { entitySchemas } from './records';
import { migrations } from './migrations';

export interface DataSourceOptions {
  readonly url: string;
  /** Pool size per process. */
  readonly poolSize?: number;
  readonly applicationName?: string;
}

export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
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
}

/** Runs pending migrations, each in its own transaction; safe when several instances start at once. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
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
  const exists = await dataSource.query(`SELECT to_regclass('schema_migrations') AS t`);
  if (exists[0]?.t) {
    for (const row of await dataSource.query('SELECT name FROM schema_migrations')) executed.add(row.name);
  }
  return migrations.map((m) => m.name).filter((name) => !executed.has(name));
}
