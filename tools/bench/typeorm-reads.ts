/**
 * What TypeORM's own read API costs against the adapter's typed raw SQL, for the simplest read a
 * repository does (one user by primary key): `Database.one<UserRecord>` (a pool query, row typed by
 * the record) vs TypeORM's Repository `findOneBy` and QueryBuilder `getOne` on the same EntitySchema.
 * Same database, same run, interleaved rounds.
 *   npx tsc -b && node tools/dist/bench/typeorm-reads.js     (DATABASE_URL=… for real PostgreSQL)
 */
import { Database } from '@voiceplane/adapter-typeorm';
import { benchDatabase, runBench } from './lib/harness';

const READS = Number(process.env.BENCH_READS ?? 4_000);
const CONCURRENCY = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ROUNDS = 3;

async function run(read: () => Promise<unknown>): Promise<{ perSecond: number; p50: number }> {
  let next = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < READS) {
        next += 1;
        const t0 = process.hrtime.bigint();
        if (!(await read())) throw new Error('no row');
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: READS / (Number(process.hrtime.bigint() - started) / 1e9),
    p50: latencies[Math.floor(latencies.length / 2)],
  };
}

async function main(): Promise<void> {
  const bench = await benchDatabase();
  try {
    const db = new Database(bench.dataSource);
    const [{ id }] = await db.query<{ id: string }>(
      `INSERT INTO users (name, email, plan) VALUES ('bench', 'bench@example.com', '{}') RETURNING id`,
    );
    const repository = bench.dataSource.getRepository('users');
    const sides: Array<[string, () => Promise<unknown>]> = [
      [
        'Database.one<UserRecord> (typed raw SQL, pool)',
        () =>
          db.one(
            `SELECT id, name, email, password_hash, disabled, balance, plan, created_at, updated_at FROM users WHERE id = $1`,
            [id],
          ),
      ],
      ['Repository.findOneBy (TypeORM)', () => repository.findOneBy({ id })],
      ['QueryBuilder.getOne (TypeORM)', () => repository.createQueryBuilder('u').where('u.id = :id', { id }).getOne()],
    ];
    for (const [, read] of sides) await run(read); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      const raw = await run(sides[0][1]);
      for (const [label, read] of sides) {
        const r = label === sides[0][0] ? raw : await run(read);
        console.log(
          `round ${round}  ${label.padEnd(50)} ${r.perSecond.toFixed(0).padStart(6)} reads/s  p50 ${r.p50.toFixed(2)} ms  ratio to raw ${(r.perSecond / raw.perSecond).toFixed(2)}`,
        );
      }
    }
  } finally {
    await bench.close();
  }
}

runBench(main);
