import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/** The chat-app voice quotas and limits hold across two app instances on one database. */

let a: TestApi;
let b: TestApi;

beforeAll(async () => {
  a = await createTestApi({ startBackground: false });
  b = await createTestApi({ startBackground: false, db: a.db });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

let counter = 0;
const unique = () => `${String(Date.now() % 1_000_000).padStart(6, '0')}${String(++counter).padStart(2, '0')}`;

async function grantedContact(user: TestUser): Promise<{ senderId: number; phone: string }> {
  const assistantId = await createAssistant(a, user);
  const sender = await a.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({
      phone_number: `+49151${unique()}`,
      display_name: 'Acme',
      assistant_id: assistantId,
      calling_enabled: true,
    });
  const phone = `+4917${unique()}`;
  const granted = await b.http
    .post('/api/sandbox/chatapp/permission-reply')
    .set(user.auth)
    .send({ sender_id: sender.body.data.id, customer_phone: phone, response: 'accept', is_permanent: true });
  expect(granted.status).toBe(200);
  return { senderId: sender.body.data.id, phone };
}

it("the request route's 5 per minute per user holds across instances: the sixth is an uncoded 429", async () => {
  // A new user per burst: a retry after a burst split over two windows must not start in a window it already used.
  const burst = async () => {
    const user = await a.createUser();
    const answers = [];
    for (let i = 0; i < 6; i += 1)
      answers.push(await (i % 2 === 0 ? a : b).http.post('/api/user/chatapp/voice/request').set(user.auth).send({}));
    return answers;
  };
  // A burst that straddles a minute boundary is split over two windows; the next one will not be.
  let answers = await burst();
  for (let tries = 0; new Set(answers.map((r) => r.headers['x-ratelimit-reset'])).size > 1 && tries < 3; tries += 1) {
    answers = await burst();
  }

  expect(answers.slice(0, 5).map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
  expect(answers[5].status).toBe(429);
  expect(answers[5].body).toEqual({ success: false, error: 'Too many requests.', retry_after: expect.any(Number) });
});

it('5 concurrent calls to one contact through both instances queue exactly 3; the rest are CONTACT_RATE_LIMIT', async () => {
  const user = await a.createUser({ balance: 25 });
  const { senderId, phone } = await grantedContact(user);

  const answers = await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      (i % 2 === 0 ? a : b).http
        .post('/api/user/chatapp/voice/call')
        .set(user.auth)
        .send({ sender_id: senderId, recipient_phone: phone }),
    ),
  );

  expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
  expect(answers.filter((r) => r.status === 429).map((r) => r.body.error_code)).toEqual([
    'CONTACT_RATE_LIMIT',
    'CONTACT_RATE_LIMIT',
  ]);
  const stored = await a.db.dataSource.query(
    `SELECT count(*)::int AS n FROM calls WHERE sender_id = $1 AND channel = 'chatapp'`,
    [senderId],
  );
  expect(stored[0].n).toBe(3);
});

it('the first minute of every call in progress is reserved: chat-app calls and make_call on a small balance, across instances', async () => {
  // 0.18 is one chat-app minute (0.08) and one phone minute (0.10), or two chat-app minutes.
  const user = await a.createUser({ balance: 0.18 });
  const contacts = [];
  for (let i = 0; i < 4; i += 1) contacts.push(await grantedContact(user));

  const answers = await Promise.all(
    contacts.map(({ senderId, phone }, i) =>
      (i % 2 === 0 ? a : b).http
        .post('/api/user/chatapp/voice/call')
        .set(user.auth)
        .send({ sender_id: senderId, recipient_phone: phone }),
    ),
  );

  expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 402, 402]);
  expect(answers.find((r) => r.status === 402)!.body.error_code).toBe('INSUFFICIENT_BALANCE');
  const assistantId = await createAssistant(a, user);
  const call = await b.http
    .post('/api/user/make_call')
    .set(user.auth)
    .send({ assistant_id: assistantId, phone_number: '+14155550100' });
  expect([call.status, call.body]).toEqual([422, { message: 'Insufficient balance.' }]);
  const open = await a.db.dataSource.query(
    `SELECT count(*)::int AS n FROM calls WHERE user_id = $1 AND status NOT IN ('completed', 'busy', 'no-answer', 'failed', 'canceled')`,
    [user.id],
  );
  expect(open[0].n).toBe(2);
});
