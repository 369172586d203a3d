import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';

/**
 * `POST /api/user/sms` through the composed app with the sandbox SMS provider: Famulor's request and
 * answers, segments billed once, refusals that charge nothing, the per-account quota and the log.
 */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.db.dataSource.query(text, params) as Promise<T[]>;
let numbers = 0;
/** A number row of the account, as a purchase leaves it. */
async function ownNumber(user: TestUser, smsCapable = true): Promise<{ id: number; phone: string }> {
  numbers += 1;
  const phone = `+4930${String(process.pid % 10000).padStart(4, '0')}${String(numbers).padStart(4, '0')}`;
  const [row] = await sql<{ id: string }>(
    `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, $2, 'purchased', 'DE', $3) RETURNING id`,
    [user.id, phone, smsCapable],
  );
  return { id: Number(row.id), phone };
}
const balanceOf = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance as number;
const smsCharges = async (user: TestUser) =>
  (await t.http.get('/api/user/billing/ledger?per_page=100').set(user.auth)).body.data.filter(
    (e: { reference: { type: string } | null }) => e.reference?.type === 'sms_message',
  );
/** Exactly what the Famulor MCP server's `send_sms` posts. */
const send = (user: TestUser, from: unknown, to: unknown, body: unknown, headers: Record<string, string> = {}) =>
  t.http.post('/api/user/sms').set(user.auth).set(headers).send({ from, to, body });

it('sends as Famulor documents it, bills every segment once, and logs it', async () => {
  const user = await t.createUser({ balance: 1 });
  const from = await ownNumber(user);
  const text = `Grüße aus Berlin! ${'x'.repeat(150)}`;
  const res = await send(user, from.id, '+49 151 2345-6789', text);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    message: 'SMS sent successfully',
    data: {
      id: expect.any(Number),
      sms_id: `SMS_${res.body.data.id}`,
      from: from.phone,
      to: '+4915123456789',
      body: text,
      segments: 2,
      cost: 0.1,
      currency: 'USD',
      status: 'sent',
    },
  });
  expect(await balanceOf(user)).toBe(0.9);
  const charges = await smsCharges(user);
  expect(charges).toEqual([
    expect.objectContaining({
      type: 'charge',
      amount: -0.1,
      balance_after: 0.9,
      description: 'SMS to +4915123456789 (2 segments)',
      reference: { type: 'sms_message', id: res.body.data.id },
    }),
  ]);
  const outbox = await t.http.get('/api/sandbox/sms/outbox').set(user.auth);
  expect(outbox.body.data[0]).toEqual(
    expect.objectContaining({ phone_number_id: from.id, from: from.phone, to: '+4915123456789', body: text }),
  );
  const listed = await t.http.get('/api/user/sms').set(user.auth);
  expect(listed.status).toBe(200);
  expect(listed.body).toMatchObject({ total: 1, current_page: 1, last_page: 1 });
  expect(listed.body.data[0]).toMatchObject({ sms_id: res.body.data.sms_id, encoding: 'gsm7', segments: 2 });
  const one = await t.http.get(`/api/user/sms/${res.body.data.sms_id}`).set(user.auth);
  expect(one.body.data).toEqual(listed.body.data[0]);

  // The carrier's report moves it forward, once.
  const delivered = await t.http
    .post(`/api/sandbox/sms/${res.body.data.id}/status`)
    .set(user.auth)
    .send({ status: 'delivered' });
  expect(delivered.status).toBe(200);
  expect(delivered.body.data.status).toBe('delivered');
  expect(
    (await t.http.post(`/api/sandbox/sms/${res.body.data.id}/status`).set(user.auth).send({ status: 'failed' })).status,
  ).toBe(409);
  expect(await balanceOf(user)).toBe(0.9);
});

it('bills UCS-2 bodies by 70/67 and GSM extension characters as two', async () => {
  const user = await t.createUser({ balance: 1 });
  const from = await ownNumber(user);
  const emoji = await send(user, from.id, '+4915123456789', `${'a'.repeat(98)}👋`);
  expect(emoji.body.data).toMatchObject({ segments: 2, cost: 0.1 });
  const euros = await send(user, from.id, '+4915123456789', '€'.repeat(81));
  expect(euros.body.data).toMatchObject({ segments: 2, cost: 0.1 });
  expect(await balanceOf(user)).toBe(0.8);
});

it('validates the request in the validation family: every missing field, the 300-character body', async () => {
  const user = await t.createUser();
  const empty = await t.http.post('/api/user/sms').set(user.auth).send({});
  expect(empty.status).toBe(422);
  expect(empty.body).toEqual({
    message: 'The given data was invalid.',
    errors: {
      from: ['The from field is required.'],
      to: ['The to field is required.'],
      body: ['The body field is required.'],
    },
  });
  const from = await ownNumber(user);
  const long = await send(user, from.id, '+4915123456789', 'ä'.repeat(301));
  expect(long.status).toBe(422);
  expect(long.body.errors).toEqual({ body: ['The body may not be greater than 300 characters.'] });
  const notInteger = await send(user, 'first', '+4915123456789', 'hi');
  expect(notInteger.status).toBe(422);
  expect(Object.keys(notInteger.body.errors)).toEqual(['from']);
  // 300 characters of UCS-2 are fine (5 segments).
  expect((await send(user, from.id, '+4915123456789', 'ç'.repeat(300))).body.data.segments).toBe(5);
});

it('refuses with Famulor’s 400 messages and charges nothing', async () => {
  const user = await t.createUser({ balance: 0.04 });
  const stranger = await t.createUser({ balance: 5 });
  const from = await ownNumber(user);
  const voiceOnly = await ownNumber(user, false);
  const foreign = await ownNumber(stranger);
  const answer = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    return { status: r.status, body: r.body };
  };
  expect(await answer(send(user, from.id, '0151 2345', 'hi'))).toEqual({
    status: 400,
    body: { message: 'Invalid phone number format' },
  });
  expect(await answer(send(user, 999999999, '+4915123456789', 'hi'))).toEqual({
    status: 400,
    body: { message: 'From number not found' },
  });
  // Another account's number is not found either: indistinguishable from one that does not exist.
  expect(await answer(send(user, foreign.id, '+4915123456789', 'hi'))).toEqual({
    status: 400,
    body: { message: 'From number not found' },
  });
  expect(await answer(send(user, voiceOnly.id, '+4915123456789', 'hi'))).toEqual({
    status: 400,
    body: { message: 'Phone number is not SMS-capable' },
  });
  expect(await answer(send(user, from.id, '+4915123456789', 'hi'))).toEqual({
    status: 400,
    body: { message: 'Insufficient balance to send SMS' },
  });
  expect(await balanceOf(user)).toBe(0.04);
  expect(await smsCharges(user)).toEqual([]);
  expect((await t.http.get('/api/user/sms').set(user.auth)).body.total).toBe(0);
  // The stranger's log is theirs alone.
  const theirs = await send(stranger, foreign.id, '+4915123456789', 'hi');
  expect((await t.http.get(`/api/user/sms/${theirs.body.data.id}`).set(user.auth)).status).toBe(404);
  expect((await t.http.get(`/api/user/sms/${theirs.body.data.id}`).set(stranger.auth)).status).toBe(200);
});

it('a provider failure answers 500 with the reason, charges nothing, and a retry with the same key is carried out', async () => {
  const user = await t.createUser({ balance: 1 });
  const from = await ownNumber(user);
  const armed = await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'sms_send', target_id: from.id });
  expect(armed.body).toEqual({ ok: true, fault: { kind: 'sms_send', target_id: from.id, remaining: 1 } });
  const key = { 'Idempotency-Key': `sms-${Date.now()}` };
  const failed = await send(user, from.id, '+4915123456789', 'hi', key);
  expect({ status: failed.status, body: failed.body }).toEqual({
    status: 500,
    body: { message: 'Failed to send SMS', error: 'Sandbox fault injected (sms_send).' },
  });
  expect(await balanceOf(user)).toBe(1);
  expect(await smsCharges(user)).toEqual([]);
  const log = (await t.http.get('/api/user/sms').set(user.auth)).body.data;
  expect(log).toEqual([
    expect.objectContaining({ status: 'failed', cost: 0, error_message: 'Sandbox fault injected (sms_send).' }),
  ]);

  const retried = await send(user, from.id, '+4915123456789', 'hi', key);
  expect(retried.status).toBe(200);
  const replayed = await send(user, from.id, '+4915123456789', 'hi', key);
  expect(replayed.headers['idempotent-replayed']).toBe('true');
  expect(replayed.body).toEqual(retried.body);
  expect(await balanceOf(user)).toBe(0.95);
  expect(await smsCharges(user)).toHaveLength(1);
  // A fault aimed at another account's number is not found.
  const stranger = await t.createUser();
  expect(
    (await t.http.post('/api/sandbox/faults').set(stranger.auth).send({ kind: 'sms_send', target_id: from.id })).status,
  ).toBe(404);
});

it('limits sends per account and minute (a database bucket, as the other quotas), each account on its own', async () => {
  const user = await t.createUser({ balance: 10 });
  const other = await t.createUser({ balance: 10 });
  const from = await ownNumber(user);
  const theirs = await ownNumber(other);
  // Windows are whole minutes of the clock: a burst that straddled a boundary would be split over two.
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  // A refused send counts too: the quota is on requests that reach the handler.
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) statuses.push((await send(user, from.id, 'bad', 'hi')).status);
  expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
  const limited = await send(user, from.id, '+4915123456789', 'hi');
  expect(limited.status).toBe(429);
  expect(limited.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
  expect(limited.headers['retry-after']).toBe(String(limited.body.retry_after));
  expect(statuses[30]).toBe(429);
  expect((await send(other, theirs.id, '+4915123456789', 'hi')).status).toBe(200);
  expect(await balanceOf(user)).toBe(10);
});
