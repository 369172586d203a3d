import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('creates the foundation tables and records every migration once', async () => {
    const tables = await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    const names = tables.map((t: { table_name: string }) => t.table_name);
    expect(names).toEqual(
      expect.arrayContaining([
        'users',
        'api_keys',
        'sessions',
        'ledger_entries',
        'rate_limit_counters',
        'idempotency_keys',
      ]),
    );
    const again = await db.dataSource.runMigrations();
    expect(again).toEqual([]);
  });
});

describe('Database.query', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('returns rows for UPDATE/DELETE … RETURNING inside and outside transactions', async () => {
    const { Database } = await import('./database');
    const database = new Database(db.dataSource);
    await database.query(`CREATE TABLE t (id int PRIMARY KEY)`);
    await database.query(`INSERT INTO t VALUES (1), (2)`);
    expect(await database.query(`DELETE FROM t WHERE id = 99 RETURNING id`)).toEqual([]);
    const inside = await database.transaction(() => database.query(`DELETE FROM t WHERE id = 98 RETURNING id`));
    expect(inside).toEqual([]);
    const updated = await database.transaction(() => database.query(`UPDATE t SET id = 3 WHERE id = 1 RETURNING id`));
    expect(updated).toEqual([{ id: 3 }]);
  });

  it('rolls back everything written inside a failed transaction, nested calls included', async () => {
    const { Database } = await import('./database');
    const database = new Database(db.dataSource);
    await database.query(`CREATE TABLE u (id int PRIMARY KEY)`);
    await expect(
      database.transaction(async () => {
        await database.query(`INSERT INTO u VALUES (1)`);
        await database.transaction(() => database.query(`INSERT INTO u VALUES (2)`));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await database.query(`SELECT * FROM u`)).toEqual([]);
  });
});
