import { createDataSource } from '@voiceplane/adapter-typeorm';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Chat-app messaging under concurrency on two instances sharing one database: inbound customer
 * messages answered by the AI, beside freeform sends to the same conversations. Every path that
 * touches the balance and a conversation takes the balance lock first; the row locks on both are
 * FOR NO KEY UPDATE, so the rows other transactions insert that merely reference them (messages,
 * ledger entries) never wait on them. No deadlock (40P01), no 5xx, and money adds up.
 */
let a: TestApi;
let b: TestApi;
let secondPool: ReturnType<typeof createDataSource>;

beforeAll(async () => {
  a = await createTestApi({ startBackground: false });
  // The second instance has its own connection pool on the same database, as another process would.
  secondPool = createDataSource({ url: a.db.url, poolSize: 8, preparedStatements: true });
  await secondPool.initialize();
  b = await createTestApi({ startBackground: false, db: { ...a.db, dataSource: secondPool } });
});
afterAll(async () => {
  await b.close();
  await secondPool.destroy();
  await a.close();
});

let round = 0;
const customers = () => {
  round += 1;
  return Array.from({ length: 10 }, (_, i) => `+491511${String(round).padStart(3, '0')}${String(i).padStart(3, '0')}`);
};

async function activeSender(user: TestUser): Promise<number> {
  const assistant = await createAssistant(a, user);
  expect((await a.http.post(`/api/user/assistant/${assistant}/activate`).set(user.auth)).status).toBe(200);
  const res = await a.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({
      phone_number: `+4930555${String(round).padStart(3, '0')}111`,
      display_name: 'Acme',
      assistant_id: assistant,
    });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

it.each([1, 2, 3])(
  'round %i: 50 inbound messages with AI replies and 50 sends at once, over two instances: no 5xx, the ledger equals the balance',
  async () => {
    const user = await a.createUser({ balance: 100 });
    const senderId = await activeSender(user);
    const CUSTOMERS = customers();
    // Each customer writes once first: the window is open for the sends.
    for (const phone of CUSTOMERS) {
      expect(
        (
          await a.http
            .post('/api/sandbox/chatapp/inbound-message')
            .set(user.auth)
            .send({ sender_id: senderId, from_phone: phone, text: 'Hello' })
        ).status,
      ).toBe(200);
    }

    const inbound = Array.from({ length: 50 }, (_, i) =>
      (i % 2 === 0 ? a : b).http
        .post('/api/sandbox/chatapp/inbound-message')
        .set(user.auth)
        .send({ sender_id: senderId, from_phone: CUSTOMERS[i % CUSTOMERS.length], text: `Question ${i}` }),
    );
    const sends = Array.from({ length: 50 }, (_, i) =>
      (i % 2 === 0 ? b : a).http
        .post('/api/user/chatapp/send-freeform')
        .set(user.auth)
        .send({ sender_id: senderId, recipient_phone: CUSTOMERS[(i * 3) % CUSTOMERS.length], message: `Answer ${i}` }),
    );
    const answers = await Promise.all([...inbound, ...sends]);

    const failures = answers.filter((r) => r.status >= 500).map((r) => `${r.status} ${JSON.stringify(r.body)}`);
    expect(failures).toEqual([]);
    expect(answers.slice(0, 50).map((r) => r.status)).toEqual(Array(50).fill(200));
    // Every inbound message got its AI reply (the balance covers them all).
    expect(answers.slice(0, 50).every((r) => r.body.ai_reply !== null)).toBe(true);
    expect(answers.slice(50).every((r) => r.status === 200 || r.status === 429)).toBe(true);

    const [money] = await a.db.dataSource.query(
      `SELECT u.balance::float AS balance, (SELECT sum(amount) FROM ledger_entries WHERE user_id = u.id)::float AS ledger,
            (SELECT balance_after FROM ledger_entries WHERE user_id = u.id ORDER BY id DESC LIMIT 1)::float AS last
       FROM users u WHERE u.id = $1`,
      [user.id],
    );
    expect(money.ledger).toBeCloseTo(money.balance, 4);
    expect(money.last).toBeCloseTo(money.balance, 4);
    const [{ charged }] = await a.db.dataSource.query(
      `SELECT count(*)::int AS charged FROM ledger_entries WHERE user_id = $1 AND amount < 0`,
      [user.id],
    );
    const sent = answers.slice(50).filter((r) => r.status === 200).length;
    expect(charged).toBe(10 + 50 + sent);
  },
);
