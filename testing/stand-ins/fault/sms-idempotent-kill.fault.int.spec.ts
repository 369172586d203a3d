import { eventually } from './webhook-receiver';
import { crashTestbed, HELD } from './held-answers';

/**
 * `POST /api/user/sms` with an Idempotency-Key across a real crash: the api process is SIGKILLed
 * after the send's settlement committed and before its answer was sent. The retry on the restarted
 * api gets the answer stored in the settlement's own commit; the SMS went out once and was charged once.
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;

runOrSkip('SMS Idempotency-Key across a SIGKILL between the charge and the answer', () => {
  const bed = crashTestbed('vp-sms-kill-');

  it('the retry gets the stored answer; one SMS, one charge', async () => {
    const user = await bed.api.createUser({ balance: 1 });
    const [row] = (await bed.db.dataSource.query(
      `INSERT INTO phone_numbers (user_id, phone_number, type, country_code, sms_capable) VALUES ($1, '+4930999000111', 'purchased', 'DE', true) RETURNING id`,
      [user.id],
    )) as { id: string }[];
    const body = JSON.stringify({ from: Number(row.id), to: '+4915123456789', body: 'Once only' });
    const post = (base: string) =>
      fetch(`${base}/api/user/sms`, {
        method: 'POST',
        headers: { ...user.auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'sms-1' },
        body,
      });

    const doomed = await bed.startApi({ FAULT_HOLD_IDEMPOTENT_ANSWERS: '1' });
    const lost = post(doomed.base).catch(() => 'lost');
    await eventually(
      async () => doomed.output.join('').includes(HELD),
      'the send to commit and its answer to be held',
      20_000,
    );
    await doomed.kill();
    expect(await lost).toBe('lost');

    const restarted = await bed.startApi();
    const retried = await post(restarted.base);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const answer = (await retried.json()) as { message: string; data: { id: number; cost: number } };
    expect(answer).toMatchObject({ message: 'SMS sent successfully', data: { cost: 0.05, status: 'sent' } });

    const sms = await bed.db.dataSource.query(`SELECT id::int AS id, settlement FROM sms_messages WHERE user_id = $1`, [
      user.id,
    ]);
    expect(sms).toEqual([{ id: answer.data.id, settlement: 'settled' }]);
    expect(
      await bed.db.dataSource.query(`SELECT count(*)::int AS n FROM sandbox_sms_sent WHERE user_id = $1`, [user.id]),
    ).toEqual([{ n: 1 }]);
    const charges = await bed.db.dataSource.query(
      `SELECT amount::float AS amount FROM ledger_entries WHERE user_id = $1 AND reference_type = 'sms_message'`,
      [user.id],
    );
    expect(charges).toEqual([{ amount: -0.05 }]);
  });
});
