import { createDataSource } from '@voiceplane/adapter-typeorm';
import { createTestApi, TestApi } from '@voiceplane/test-env';

/**
 * Money exactly once under concurrency: N sends at once, over two instances with their own
 * connection pools on one database, on a balance that pays for k of them. The balance lock and the
 * pending SMS that count as spent let exactly k through; the ledger adds up to the balance.
 */
let a: TestApi;
let b: TestApi;
let secondPool: ReturnType<typeof createDataSource>;

beforeAll(async () => {
  a = await createTestApi({ startBackground: false });
  secondPool = createDataSource({ url: a.db.url, poolSize: 8, preparedStatements: true });
  await secondPool.initialize();
  b = await createTestApi({ startBackground: false, db: { ...a.db, dataSource: secondPool } });
});
afterAll(async () => {
  await b.close();
  await secondPool.destroy();
  await a.close();
});

it.each([
  [20, 0.35, 7],
  [25, 0.1, 2],
])('%i concurrent sends on a balance of %d: exactly %i charged, the rest refused, no 5xx', async (n, balance, k) => {
  const user = await a.createUser({ balance });
  const [row] = (await a.db.dataSource.query(
    `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, $2, 'purchased', 'DE', true) RETURNING id`,
    [user.id, `+4989${String(process.pid % 10000).padStart(4, '0')}${String(user.id).padStart(4, '0')}`],
  )) as { id: string }[];
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      (i % 2 === 0 ? a : b).http
        .post('/api/user/sms')
        .set(user.auth)
        .send({ from: Number(row.id), to: '+4915123456789', body: `Message ${i}` }),
    ),
  );
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(k);
  expect(statuses.filter((s) => s !== 200)).toEqual(Array(n - k).fill(400));
  for (const r of answers.filter((x) => x.status === 400))
    expect(r.body).toEqual({ message: 'Insufficient balance to send SMS' });

  const [totals] = (await a.db.dataSource.query(
    `SELECT u.balance, (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE user_id = u.id AND reference_type = 'sms_message') AS charged,
            (SELECT count(*) FROM ledger_entries WHERE user_id = u.id AND reference_type = 'sms_message') AS charges,
            (SELECT count(*) FROM sms_messages WHERE user_id = u.id AND settlement = 'settled') AS settled,
            (SELECT count(*) FROM sms_messages WHERE user_id = u.id AND settlement = 'pending') AS pending
       FROM users u WHERE u.id = $1`,
    [user.id],
  )) as { balance: string; charged: string; charges: string; settled: string; pending: string }[];
  expect({
    balance: Number(totals.balance),
    charged: Number(totals.charged),
    charges: Number(totals.charges),
    settled: Number(totals.settled),
    pending: Number(totals.pending),
  }).toEqual({
    // + 0: an exact spend leaves 0, which Math.round writes as -0.
    balance: Math.round((balance - k * 0.05) * 10_000) / 10_000 + 0,
    charged: -Math.round(k * 0.05 * 10_000) / 10_000,
    charges: k,
    settled: k,
    pending: 0,
  });
});
