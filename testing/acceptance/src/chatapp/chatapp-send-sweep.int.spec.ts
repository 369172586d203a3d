import { newMessageSid, OutboundSends, ProviderSenders, SendReservationSweep, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi } from '@voiceplane/test-env';

/**
 * A process that dies between a send's reservation and its settlement: the sweep asks the sandbox
 * chat app about the send's reference and settles it once — recorded and charged when the chat app
 * took it, given back when it never got it — however many sweeps run at once.
 */

const CUSTOMER = '+14155559876';
const PRICE = 0.01;

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => {
  await t.close();
});

it('settles each send a dead process left exactly once: the one the chat app took is charged and recorded, the other given back', async () => {
  const user = await t.createUser({ balance: 1 });
  const created = await t.http
    .post('/api/user/chatapp/senders')
    .set(user.auth)
    .send({ phone_number: '+4915199990001', display_name: 'Acme' });
  const senderId = created.body.data.id as number;
  await t.http
    .post('/api/sandbox/chatapp/inbound-message')
    .set(user.auth)
    .send({ sender_id: senderId, from_phone: CUSTOMER, text: 'Hi' })
    .expect(200);

  const c = t.runtime.container;
  const reservations = c.get(TOKENS.SendReservationRepository);
  const provider = c.get(TOKENS.ChatappProvider);
  const sender = (await c.get(TOKENS.SenderRepository).findOwned(user.id, senderId))!;
  const ids = c.get(TOKENS.Ids);
  // What a send had done when its process died: reserved, then (for the first) the provider took it.
  const reserve = (text: string) =>
    reservations.reserve({
      userId: user.id,
      senderId,
      recipientPhone: CUSTOMER,
      messageSid: newMessageSid(ids),
      amount: PRICE,
      fromAllowance: false,
      now: new Date(),
      message: {
        source: 'api',
        type: 'text',
        body: text,
        media: null,
        templateId: null,
        recipientName: null,
        createConversation: false,
        description: 'Freeform message',
        requestId: null,
      },
    });
  const delivered = await reserve('went out');
  await provider.sendFreeform(
    await c.get(ProviderSenders).of(sender),
    CUSTOMER,
    { kind: 'text', text: 'went out' },
    delivered.messageSid,
  );
  const lost = await reserve('never left');
  expect(await reservations.held(user.id)).toEqual({ amount: 2 * PRICE, allowance: 0 });

  const later = { now: () => new Date(Date.now() + 3 * 60_000) };
  const sweep = () =>
    new SendReservationSweep(
      { reservations, senders: c.get(TOKENS.SenderRepository) },
      { providerSenders: c.get(ProviderSenders), provider, outbound: c.get(OutboundSends) },
      later,
      { warn: () => undefined },
    ).sweep();
  const passes = await Promise.all([sweep(), sweep(), sweep()]);
  const outcomes = (id: number) => passes.map((p) => p[id]).filter((o) => o !== undefined && o !== 'settled_already');
  expect([outcomes(delivered.id), outcomes(lost.id)]).toEqual([['sent'], ['released']]);
  expect(await sweep()).toEqual({});

  const [money] = await t.db.dataSource.query(
    `SELECT u.balance::float AS balance, (SELECT sum(amount) FROM ledger_entries WHERE user_id = u.id)::float AS ledger,
            (SELECT count(*)::int FROM ledger_entries WHERE user_id = u.id AND amount < 0) AS charged
       FROM users u WHERE u.id = $1`,
    [user.id],
  );
  expect(money.balance).toBeCloseTo(1 - PRICE, 4);
  expect(money.ledger).toBeCloseTo(money.balance, 4);
  expect(money.charged).toBe(1);
  expect(await reservations.held(user.id)).toEqual({ amount: 0, allowance: 0 });
  const outbox = await t.http.get(`/api/sandbox/chatapp/outbox?sender_id=${senderId}`).set(user.auth);
  expect(outbox.body.data.map((m: Record<string, unknown>) => [m.message_sid, m.body])).toEqual([
    [delivered.messageSid, 'went out'],
  ]);
  const conversation = (await t.http.get('/api/user/conversations').set(user.auth)).body.data[0];
  expect(conversation.message_count).toBe(2);
});
