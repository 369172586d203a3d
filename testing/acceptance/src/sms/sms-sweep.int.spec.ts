import { TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi } from '@voiceplane/test-env';

/**
 * A send whose process died between the reservation and the settlement: its cost is held until the
 * sweep settles it — charged once when the provider took it, released uncharged otherwise.
 */
let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
});
afterAll(async () => t.close());

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  t.db.dataSource.query(text, params) as Promise<T[]>;

it('charges a stale send the provider took, once, and releases one it never took', async () => {
  const user = await t.createUser({ balance: 0.1 });
  const phone = `+4969${String(process.pid % 10000).padStart(4, '0')}${String(user.id).padStart(4, '0')}`;
  const [number] = await sql<{ id: string }>(
    `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, $2, 'purchased', 'DE', true) RETURNING id`,
    [user.id, phone],
  );
  const pending = async () => {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO sms_messages (user_id, phone_number_id, from_phone, to_phone, body, encoding, segments, cost, settlement, status, created_at, updated_at)
       VALUES ($1, $2, $3, '+4915123456789', 'Hi', 'gsm7', 1, 0.05, 'pending', 'sent', now() - interval '10 minutes', now() - interval '10 minutes') RETURNING id`,
      [user.id, number.id, phone],
    );
    return Number(row.id);
  };
  const taken = await pending();
  const lost = await pending();
  // The sandbox took the first before its process died.
  await sql(
    `INSERT INTO sandbox_sms_sent (user_id, phone_number_id, from_phone, to_phone, body, provider_message_id, sent_at) VALUES ($1, $2, $3, '+4915123456789', 'Hi', $4, now())`,
    [user.id, number.id, phone, `SM${taken.toString(16).padStart(32, '0')}`],
  );
  const send = () =>
    t.http
      .post('/api/user/sms')
      .set(user.auth)
      .send({ from: Number(number.id), to: '+4915123456789', body: 'Hi' });
  // Both hold their cost: the whole balance.
  expect((await send()).body).toEqual({ message: 'Insufficient balance to send SMS' });

  const sweep = t.runtime.container.get(TOKENS.SmsSettlementSweep);
  await sweep.sweep();
  await sweep.sweep();
  const log = (await t.http.get('/api/user/sms').set(user.auth)).body.data as {
    id: number;
    status: string;
    cost: number;
  }[];
  expect(log.find((m) => m.id === taken)).toMatchObject({ status: 'sent', cost: 0.05 });
  expect(log.find((m) => m.id === lost)).toMatchObject({ status: 'failed', cost: 0 });
  const ledger = (await t.http.get('/api/user/billing/ledger').set(user.auth)).body.data;
  expect(ledger.filter((e: { reference: { type: string } | null }) => e.reference?.type === 'sms_message')).toEqual([
    expect.objectContaining({ amount: -0.05, reference: { type: 'sms_message', id: taken } }),
  ]);
  expect((await t.http.get('/api/user/billing/balance').set(user.auth)).body.total_balance).toBe(0.05);
  expect((await send()).status).toBe(200);
});
