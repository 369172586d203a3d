import { DataSource, EntitySchema, QueryRunner } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { createDataSource } from './data-source';
import { apiKeys, assistants, entitySchemas, eventTypes, ledgerEntries, outboxEvents, processedEvents, tools, users } from './records';
import { varchar } from './records/columns';

/**
 * The migrations create the schema; the EntitySchema records describe it. On a freshly migrated
 * database TypeORM's schema builder must find nothing to change, so the two cannot drift apart.
 *
 * The builder compares indexes and CHECK constraints by name only, so the index predicates and
 * check expressions the records state are compared here as well, each normalised by PostgreSQL.
 */

const MIGRATIONS_TABLE = 'schema_migrations';

let db: TestDatabase;
beforeAll(async () => { db = await createTestDatabase(); });
afterAll(async () => db?.close());

/** The DDL TypeORM would run to make the database match the DataSource's records. */
async function pendingSchemaChange(dataSource: DataSource): Promise<string> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query).join(';\n');
}

/** A DataSource on the same database whose records are `schemas`. */
async function withRecords<T>(schemas: EntitySchema[], work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = createDataSource({ url: db.url, poolSize: 2 }).setOptions({ entities: schemas });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Every record, with `schema` replaced by a copy whose options `change` alters. */
function altered<T>(schema: EntitySchema<T>, change: (options: EntitySchema<T>['options']) => EntitySchema<T>['options']): EntitySchema[] {
  return entitySchemas.map((s) => (s === schema ? new EntitySchema(change(schema.options)) : s)) as EntitySchema[];
}

describe('the EntitySchema records', () => {
  it('cover every table the migrations create', async () => {
    expect(await tablesWithoutRecord(db.dataSource)).toEqual([]);
  });

  it('describe exactly the tables, columns, keys and indexes the migrations create', async () => {
    expect(await pendingSchemaChange(db.dataSource)).toBe('');
  });

  it('state the index predicates and CHECK expressions the migrations create', async () => {
    expect(await unstatedExpressions(db.dataSource)).toBe('');
  });
});

describe('the schema-drift check', () => {
  const alterations: Array<[string, EntitySchema[]]> = [
    ['a record has a column no migration adds', altered(users, (o) => ({ ...o, columns: { ...o.columns, nickname: varchar(40, true) } as typeof o.columns }))],
    ['a record makes a nullable column NOT NULL', altered(apiKeys, (o) => ({ ...o, columns: { ...o.columns, last_used_at: { type: 'timestamptz' } } }))],
    ['a record changes a default', altered(tools, (o) => ({ ...o, columns: { ...o.columns, timeout: { type: 'integer', default: 20 } } }))],
    ['a record lacks an index', altered(ledgerEntries, (o) => ({ ...o, indices: [] }))],
    ['a record changes a delete rule', altered(assistants, (o) => ({
      ...o, foreignKeys: o.foreignKeys!.map((fk) => (fk.name === 'assistants_folder_id_fkey' ? { ...fk, onDelete: 'CASCADE' as const } : fk)),
    }))],
    ['a record lacks a CHECK constraint', altered(assistants, (o) => ({ ...o, checks: o.checks!.filter((c) => c.name !== 'assistants_mode_check') }))],
  ];

  it.each(alterations)('reports a change when %s', async (_, schemas) => {
    expect(await withRecords(schemas, pendingSchemaChange)).not.toBe('');
  });

  it('reports a table no record describes', async () => {
    expect(await withRecords(entitySchemas.filter((s) => s !== processedEvents), tablesWithoutRecord)).toEqual(['processed_events']);
  });

  it.each([
    ['an index predicate', altered(outboxEvents, (o) => ({
      ...o, indices: o.indices!.map((i) => (i.name === 'outbox_events_unpublished_idx' ? { ...i, where: 'published_at IS NOT NULL' } : i)),
    }))],
    ['a CHECK expression', altered(eventTypes, (o) => ({ ...o, checks: [{ ...o.checks![0], expression: 'duration_minutes BETWEEN 5 AND 240' }] }))],
  ])('reports a record that states %s other than the migration', async (_, schemas) => {
    expect(await withRecords(schemas, unstatedExpressions)).not.toBe('');
  });
});

/** Tables of the migrated database that no record describes (the schema builder only looks at described ones). */
async function tablesWithoutRecord(dataSource: DataSource): Promise<string[]> {
  const described = new Set(dataSource.entityMetadatas.map((m) => m.tableName));
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
  );
  return tables.map((t) => t.name).filter((name) => name !== MIGRATIONS_TABLE && !described.has(name));
}

/** Index predicates and CHECK expressions of the records that differ from the database's, one line each. */
async function unstatedExpressions(dataSource: DataSource): Promise<string> {
  const runner = dataSource.createQueryRunner();
  try {
    const differences: string[] = [];
    for (const metadata of dataSource.entityMetadatas) {
      for (const index of metadata.indices.filter((i) => i.synchronize)) {
        const stated = index.where ? await normalisedPredicate(runner, metadata.tableName, index.where) : null;
        const actual = await indexPredicate(runner, index.name!);
        if (stated !== actual) differences.push(`index ${index.name}: record says ${stated}, database has ${actual}`);
      }
      for (const check of metadata.checks) {
        const stated = await normalisedCheck(runner, metadata.tableName, check.expression!);
        const actual = await checkDefinition(runner, metadata.tableName, check.name);
        if (stated !== actual) differences.push(`check ${check.name}: record says ${stated}, database has ${actual}`);
      }
    }
    return differences.join('\n');
  } finally {
    await runner.release();
  }
}

/** `where` as PostgreSQL stores it, learnt from a throw-away index built inside a rolled-back transaction. */
async function normalisedPredicate(runner: QueryRunner, table: string, where: string): Promise<string | null> {
  return insideRollback(runner, async () => {
    await runner.query(`CREATE INDEX drift_probe ON ${table} ((1)) WHERE ${where}`);
    return indexPredicate(runner, 'drift_probe');
  });
}

async function indexPredicate(runner: QueryRunner, name: string): Promise<string | null> {
  const rows = await runner.query(`SELECT pg_get_expr(indpred, indrelid) AS predicate FROM pg_index WHERE indexrelid = $1::regclass`, [name]);
  return rows[0]?.predicate ?? null;
}

/** `expression` as PostgreSQL stores a CHECK, learnt from a throw-away constraint inside a rolled-back transaction. */
async function normalisedCheck(runner: QueryRunner, table: string, expression: string): Promise<string | null> {
  return insideRollback(runner, async () => {
    await runner.query(`ALTER TABLE ${table} ADD CONSTRAINT drift_probe CHECK (${expression}) NOT VALID`);
    return (await checkDefinition(runner, table, 'drift_probe'))?.replace(/ NOT VALID$/, '') ?? null;
  });
}

async function checkDefinition(runner: QueryRunner, table: string, name: string): Promise<string | null> {
  const rows = await runner.query(
    `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`,
    [table, name],
  );
  return rows[0]?.definition ?? null;
}

async function insideRollback<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
  await runner.startTransaction();
  try {
    return await work();
  } finally {
    await runner.rollbackTransaction();
  }
}
