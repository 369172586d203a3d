import { hubSignatureOf } from '@voiceplane/adapter-whatsapp';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { GraphStandIn } from '@voiceplane/stand-ins/whatsapp/graph-stand-in';
import { PHONE_NUMBER_ID, textMessage, WABA_ID } from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';

/**
 * No transaction stays open while the chat app answers a send: a Graph stand-in that takes
 * 300 ms per send looks, just before it answers, for connections of the app that have sat idle
 * inside a transaction for longer than half that (the send's own reservation, had it stayed open,
 * would have). Five sends of one account to one customer then overlap instead of queueing on the
 * account's balance lock.
 */

const APP_SECRET = 'whatsapp-app-secret-locks';
const TOKEN = 'EAAG-locks-token';
const CUSTOMER = '+16505551234';
const DELAY_MS = 300;

let t: TestApi;
let graph: GraphStandIn;
let owner: TestUser;
let senderId: number;
const heldOpen: number[] = [];

beforeAll(async () => {
  graph = await GraphStandIn.start(TOKEN);
  graph.addNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    displayPhoneNumber: '+1 555-078-3881',
    status: 'CONNECTED',
    qualityRating: 'GREEN',
    messagingLimitTier: 'TIER_10K',
  });
  t = await createTestApi({
    env: {
      CHATAPP_PROVIDER: 'whatsapp_cloud',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-locks',
      WHATSAPP_GRAPH_BASE_URL: graph.baseUrl,
      REPLY_GENERATOR: 'off',
    },
    config: { publicBaseUrl: 'https://vp.example' },
  });
  owner = await t.createUser({ balance: 5 });
  const registered = await t.http
    .post('/api/user/chatapp/senders')
    .set(owner.auth)
    .send({
      phone_number: '+15550783881',
      display_name: 'Acme Support',
      provider_config: { phone_number_id: PHONE_NUMBER_ID, waba_id: WABA_ID, access_token: TOKEN },
    });
  expect(registered.status).toBe(201);
  senderId = registered.body.data.id;
  // The customer writes first: the window for freeform sends is open.
  const bytes = Buffer.from(JSON.stringify(textMessage('wamid.LOCKS1', 'Hello?')));
  const signed = await t.http
    .post('/api/providers/chatapp/whatsapp/webhook')
    .set('Content-Type', 'application/json')
    .set('X-Hub-Signature-256', hubSignatureOf(APP_SECRET, bytes))
    .send(bytes.toString('utf8'));
  expect(signed.status).toBe(200);
  await eventually(
    async () => (await t.http.get('/api/user/conversations').set(owner.auth)).body.data.length === 1,
    'the conversation opened',
  );
  graph.slowSends(DELAY_MS, async () => {
    const [{ n }] = await t.db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'
          AND clock_timestamp() - xact_start > $1 * interval '1 millisecond'`,
      [DELAY_MS / 2],
    );
    heldOpen.push(n);
  });
});
afterAll(async () => {
  await t.close();
  await graph.close();
});

it('holds no transaction open while the chat app answers, and five sends of one account overlap', async () => {
  const sends = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      t.http
        .post('/api/user/chatapp/send-freeform')
        .set(owner.auth)
        .send({ sender_id: senderId, recipient_phone: CUSTOMER, message: `update ${i}` }),
    ),
  );
  expect(sends.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
  expect(heldOpen).toHaveLength(5);
  expect(heldOpen).toEqual([0, 0, 0, 0, 0]);
  // Queued on the account's balance lock, the chat app would see one send at a time; overlapping,
  // it is answering several at once (counted there, so a slow machine cannot make this pass or fail).
  expect(graph.maxSendsInFlight).toBeGreaterThan(1);
  const [money] = await t.db.dataSource.query(
    `SELECT u.balance::float AS balance, (SELECT sum(amount) FROM ledger_entries WHERE user_id = u.id)::float AS ledger,
            (SELECT count(*)::int FROM ledger_entries WHERE user_id = u.id AND amount < 0) AS charged,
            (SELECT count(*)::int FROM chatapp_send_reservations WHERE user_id = u.id AND outcome IS NULL) AS open
       FROM users u WHERE u.id = $1`,
    [owner.id],
  );
  expect(money.ledger).toBeCloseTo(money.balance, 4);
  expect([money.charged, money.open]).toEqual([5, 0]);
});

it('a send the chat app refuses gives its reservation back and stores and charges nothing', async () => {
  const before = (await t.http.get('/api/user/conversations').set(owner.auth)).body.data[0].message_count;
  const balance = async () =>
    (await t.db.dataSource.query(`SELECT balance::float AS b FROM users WHERE id = $1`, [owner.id]))[0].b;
  const was = await balance();
  graph.removeNumber(PHONE_NUMBER_ID);
  // Past the second in which the five sends spent the account's 5 per second.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const refused = await t.http
    .post('/api/user/chatapp/send-freeform')
    .set(owner.auth)
    .send({ sender_id: senderId, recipient_phone: CUSTOMER, message: 'lost' });
  expect([refused.status, refused.body.error_code]).toEqual([422, 'SEND_FAILED']);
  expect(await balance()).toBe(was);
  expect((await t.http.get('/api/user/conversations').set(owner.auth)).body.data[0].message_count).toBe(before);
  const [{ outcome }] = await t.db.dataSource.query(
    `SELECT outcome FROM chatapp_send_reservations WHERE user_id = $1 ORDER BY id DESC LIMIT 1`,
    [owner.id],
  );
  expect(outcome).toBe('released');
});
