import { DataSource, EntitySchema, QueryRunner } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { createDataSource } from './data-source';
import {
  apiKeys,
  assistants,
  calls,
  entitySchemas,
  eventTypes,
  ledgerEntries,
  outboxEvents,
  processedEvents,
  tools,
  users,
} from './records';
import { varchar } from './records/columns';

/**
 * The migrations create the schema; the EntitySchema records describe it. On a freshly migrated
 * database TypeORM's schema builder must find nothing to change, so the two cannot drift apart.
 *
 * The builder compares indexes only by name, uniqueness and the set of their columns, and CHECK
 * constraints only by name, so the definitions of both are compared here as well, the records'
 * side normalised by PostgreSQL from a throw-away index or constraint.
 */

type IndexMetadata = DataSource['entityMetadatas'][number]['indices'][number];

const MIGRATIONS_TABLE = 'schema_migrations';
/** Name of the throw-away index or constraint built from a record, inside a rolled-back transaction. */
const PROBE = 'drift_probe';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());

describe('the EntitySchema records', () => {
  it('cover every table the migrations create', async () => {
    expect(await tablesWithoutRecord(db.dataSource)).toEqual([]);
  });

  it('describe exactly the tables, columns, keys and indexes the migrations create', async () => {
    expect(await pendingSchemaChange(db.dataSource)).toBe('');
  });

  it('state the index definitions and CHECK expressions the migrations create', async () => {
    expect(await definitionDifferences(db.dataSource)).toBe('');
  });
});

describe('the schema-drift check', () => {
  it('reports a table no record describes', async () => {
    expect(
      await withRecords(
        entitySchemas.filter((s) => s !== processedEvents),
        tablesWithoutRecord,
      ),
    ).toEqual(['processed_events']);
  });

  it.each<[string, EntitySchema[]]>([
    [
      'a record has a column no migration adds',
      altered(users, (o) => ({ ...o, columns: { ...o.columns, nickname: varchar(40, true) } as typeof o.columns })),
    ],
    [
      'a record makes a nullable column NOT NULL',
      altered(apiKeys, (o) => ({ ...o, columns: { ...o.columns, last_used_at: { type: 'timestamptz' } } })),
    ],
    [
      'a record changes a default',
      altered(tools, (o) => ({ ...o, columns: { ...o.columns, timeout: { type: 'integer', default: 20 } } })),
    ],
    ['a record lacks an index', altered(ledgerEntries, (o) => ({ ...o, indices: [] }))],
    [
      'a record changes a delete rule',
      altered(assistants, (o) => ({
        ...o,
        foreignKeys: o.foreignKeys!.map((fk) =>
          fk.name === 'assistants_folder_id_fkey' ? { ...fk, onDelete: 'CASCADE' as const } : fk,
        ),
      })),
    ],
    [
      'a record lacks a CHECK constraint',
      altered(assistants, (o) => ({ ...o, checks: o.checks!.filter((c) => c.name !== 'assistants_mode_check') })),
    ],
  ])('reports a pending change when %s', async (_, schemas) => {
    expect(await withRecords(schemas, pendingSchemaChange)).not.toBe('');
  });

  it.each<[string, EntitySchema[]]>([
    [
      'an index predicate',
      altered(outboxEvents, (o) => ({
        ...o,
        indices: o.indices!.map((i) =>
          i.name === 'outbox_events_unpublished_idx' ? { ...i, where: 'published_at IS NOT NULL' } : i,
        ),
      })),
    ],
    [
      'an index column order',
      altered(calls, (o) => ({
        ...o,
        indices: o.indices!.map((i) =>
          i.name === 'calls_user_assistant_idx' ? { ...i, columns: ['assistant_id', 'user_id', 'id'] } : i,
        ),
      })),
    ],
    [
      'a CHECK expression',
      altered(eventTypes, (o) => ({
        ...o,
        checks: [{ ...o.checks![0], expression: 'duration_minutes BETWEEN 5 AND 240' }],
      })),
    ],
  ])('reports a record that states %s other than the migration', async (_, schemas) => {
    expect(await withRecords(schemas, definitionDifferences)).not.toBe('');
  });
});

/** Every record, with `schema` replaced by a copy whose options `change` alters. */
function altered<T>(
  schema: EntitySchema<T>,
  change: (options: EntitySchema<T>['options']) => EntitySchema<T>['options'],
): EntitySchema[] {
  return entitySchemas.map((s) => (s === schema ? new EntitySchema(change(schema.options)) : s));
}

/** A DataSource on the test database whose records are `schemas`. */
async function withRecords<T>(schemas: EntitySchema[], work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = createDataSource({ url: db.url, poolSize: 2 }).setOptions({ entities: schemas });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Tables of the database that no record describes (the schema builder only looks at described ones). */
async function tablesWithoutRecord(dataSource: DataSource): Promise<string[]> {
  const described = new Set(dataSource.entityMetadatas.map((m) => m.tableName));
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
  );
  return tables.map((t) => t.name).filter((name) => name !== MIGRATIONS_TABLE && !described.has(name));
}

/** The DDL TypeORM would run to make the database match the DataSource's records, one statement a line. */
async function pendingSchemaChange(dataSource: DataSource): Promise<string> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query).join(';\n');
}

/** Index definitions and CHECK expressions of the records that differ from the database's, one a line. */
async function definitionDifferences(dataSource: DataSource): Promise<string> {
  const runner = dataSource.createQueryRunner();
  try {
    const differences: string[] = [];
    const report = (what: string, stated: string | null, actual: string | null) => {
      if (stated !== actual) differences.push(`${what}\n  record:   ${stated}\n  database: ${actual}`);
    };
    for (const metadata of dataSource.entityMetadatas) {
      // Indexes TypeORM cannot express (on expressions) are marked synchronize: false and left out.
      for (const index of metadata.indices.filter((i) => i.synchronize)) {
        const stated = await probed(runner, probeIndexSql(metadata.tableName, index), () =>
          indexDefinition(runner, PROBE),
        );
        report(
          `index ${index.name}`,
          stated?.replace(PROBE, index.name!) ?? null,
          await indexDefinition(runner, index.name!),
        );
      }
      for (const check of metadata.checks) {
        const stated = await probed(
          runner,
          `ALTER TABLE ${metadata.tableName} ADD CONSTRAINT ${PROBE} CHECK (${check.expression}) NOT VALID`,
          async () => (await checkDefinition(runner, metadata.tableName, PROBE))?.replace(/ NOT VALID$/, '') ?? null,
        );
        report(`check ${check.name}`, stated, await checkDefinition(runner, metadata.tableName, check.name));
      }
    }
    return differences.join('\n');
  } finally {
    await runner.release();
  }
}

function probeIndexSql(table: string, index: IndexMetadata): string {
  const columns = index.columns.map((c) => `"${c.databaseName}"`).join(', ');
  return `CREATE ${index.isUnique ? 'UNIQUE ' : ''}INDEX ${PROBE} ON ${table} (${columns})${index.where ? ` WHERE ${index.where}` : ''}`;
}

async function indexDefinition(runner: QueryRunner, name: string): Promise<string | null> {
  const rows = await runner.query(`SELECT pg_get_indexdef(to_regclass($1)) AS definition`, [name]);
  // Allowed difference: TypeORM cannot state a descending key, which the owners' newest-first lists use.
  return (rows[0]?.definition as string | null)?.replace(/ DESC\b/g, '') ?? null;
}

async function checkDefinition(runner: QueryRunner, table: string, name: string): Promise<string | null> {
  const rows = await runner.query(
    `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`,
    [table, name],
  );
  return rows[0]?.definition ?? null;
}

/** What `read` finds after `ddl` ran, with the DDL rolled back afterwards. */
async function probed<T>(runner: QueryRunner, ddl: string, read: () => Promise<T>): Promise<T> {
  await runner.startTransaction();
  try {
    await runner.query(ddl);
    return await read();
  } finally {
    await runner.rollbackTransaction();
  }
}
