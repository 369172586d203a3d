import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApi, createTestDatabase, TestApi, TestDatabase } from '@voiceplane/test-env';
import { ApiProcess } from './api-process';
import { eventually } from './webhook-receiver';

/**
 * `POST /api/user/sms` with an Idempotency-Key across a real crash: the api process is SIGKILLed
 * after the send's settlement committed and before its answer was sent. The retry on the restarted
 * api gets the answer stored in the settlement's own commit; the SMS went out once and was charged once.
 *
 * Needs PostgreSQL (DATABASE_URL) and a built api (`npx tsc -b`).
 */
const runOrSkip = process.env.DATABASE_URL ? describe : describe.skip;
const HELD = 'fault: an idempotent answer is held after its effect committed';

runOrSkip('SMS Idempotency-Key across a SIGKILL between the charge and the answer', () => {
  let db: TestDatabase;
  let api: TestApi;
  const dataDir = mkdtempSync(join(tmpdir(), 'vp-sms-kill-'));
  const started: ApiProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = await createTestApi({ db, startBackground: false });
  });
  afterAll(async () => {
    for (const child of started) await child.kill().catch(() => undefined);
    await api.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string> = {}) => {
    const child = await ApiProcess.start({ DATABASE_URL: db.url, VOICEPLANE_DATA_DIR: dataDir, ...env });
    started.push(child);
    return child;
  };

  it('the retry gets the stored answer; one SMS, one charge', async () => {
    const user = await api.createUser({ balance: 1 });
    const [row] = (await db.dataSource.query(
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

    const doomed = await start({ FAULT_HOLD_IDEMPOTENT_ANSWERS: '1' });
    const lost = post(doomed.base).catch(() => 'lost');
    await eventually(
      async () => doomed.output.join('').includes(HELD),
      'the send to commit and its answer to be held',
      20_000,
    );
    await doomed.kill();
    expect(await lost).toBe('lost');

    const restarted = await start();
    const retried = await post(restarted.base);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    const answer = (await retried.json()) as { message: string; data: { id: number; cost: number } };
    expect(answer).toMatchObject({ message: 'SMS sent successfully', data: { cost: 0.05, status: 'sent' } });

    const sms = await db.dataSource.query(`SELECT id::int AS id, settlement FROM sms_messages WHERE user_id = $1`, [
      user.id,
    ]);
    expect(sms).toEqual([{ id: answer.data.id, settlement: 'settled' }]);
    expect(
      await db.dataSource.query(`SELECT count(*)::int AS n FROM sandbox_sms_sent WHERE user_id = $1`, [user.id]),
    ).toEqual([{ n: 1 }]);
    const charges = await db.dataSource.query(
      `SELECT amount::float AS amount FROM ledger_entries WHERE user_id = $1 AND reference_type = 'sms_message'`,
      [user.id],
    );
    expect(charges).toEqual([{ amount: -0.05 }]);
  });
});
