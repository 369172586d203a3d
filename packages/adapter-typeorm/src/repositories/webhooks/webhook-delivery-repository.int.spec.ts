import { CryptoIds, DeliveryForSettlement, DeliverySettlement } from '@voiceplane/application';
import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { PostgresJobStore } from '../../scheduler/postgres-job-store';
import { TypeormOutbox } from '../outbox-writer';
import { TypeormWebhookDeliveryRepository } from './webhook-delivery-repository';

let db: TestDatabase;
let database: Database;
let repository: TypeormWebhookDeliveryRepository;
let userId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
  repository = new TypeormWebhookDeliveryRepository(
    database,
    new TypeormOutbox(database, new CryptoIds(), { now: () => new Date() }),
    new PostgresJobStore(database),
  );
  const [user] = await database.query<{ id: string }>(
    `INSERT INTO users (name, email, plan) VALUES ('R', 'r@example.test', '{}') RETURNING id`,
  );
  userId = Number(user.id);
});
afterAll(async () => db.close());

let counter = 0;
/** A new pending `post_call` delivery of the user's assistant `assistantId`; returns its id. */
async function inserted(options: { assistantId?: number; createdAt?: Date; body?: string } = {}): Promise<string> {
  counter++;
  const id = `dlv_${String(counter).padStart(22, '0')}`;
  await repository.insert({
    id,
    webhookId: `msg_${String(counter).padStart(22, '0')}`,
    userId,
    eventType: 'post_call',
    targetUrl: 'https://hooks.example.com/x',
    body: options.body ?? '{}',
    source: { type: 'assistant', id: options.assistantId ?? 1 },
    subject: null,
    requestId: null,
    maxAttempts: 8,
    now: options.createdAt ?? new Date(),
  });
  return id;
}

/** The row's settlement state, read plainly. */
async function settlementState(id: string): Promise<DeliveryForSettlement | null> {
  const r = await database.one<Record<string, unknown>>(
    `SELECT status, attempts_count, round_attempts, max_attempts, lease_token FROM webhook_deliveries WHERE id = $1`,
    [id],
  );
  return (
    r && {
      status: r.status as DeliveryForSettlement['status'],
      attemptsCount: Number(r.attempts_count),
      roundAttempts: Number(r.round_attempts),
      maxAttempts: Number(r.max_attempts),
      leaseToken: (r.lease_token as string | null) ?? null,
    }
  );
}

async function delivery(status: string, updatedDaysAgo: number): Promise<string> {
  const id = await inserted();
  await database.query(
    `UPDATE webhook_deliveries SET status = $2, updated_at = now() - make_interval(days => $3) WHERE id = $1`,
    [id, status, updatedDaysAgo],
  );
  return id;
}

describe('TypeormWebhookDeliveryRepository', () => {
  it('purges settled deliveries (and their attempts) last changed before the cutoff, never pending ones', async () => {
    const old = await Promise.all(['succeeded', 'failed', 'canceled'].map((s) => delivery(s, 31)));
    const oldPending = await delivery('pending', 31);
    const recent = await delivery('succeeded', 29);
    await database.query(
      `INSERT INTO webhook_delivery_attempts (delivery_seq, number, at, status_code, duration_ms) SELECT seq, 1, now(), 200, 5 FROM webhook_deliveries WHERE id = $1`,
      [old[0]],
    );
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    expect(await repository.purgeSettledBefore(cutoff, 2)).toBe(2);
    expect(await repository.purgeSettledBefore(cutoff, 2)).toBe(1);
    expect(await repository.purgeSettledBefore(cutoff, 2)).toBe(0);
    const left = await database.query<{ id: string }>(`SELECT id FROM webhook_deliveries ORDER BY seq`);
    expect(left.map((r) => r.id)).toEqual([oldPending, recent]);
    expect(await database.query(`SELECT * FROM webhook_delivery_attempts`)).toEqual([]);
  });

  it('cancels nothing when no event type is named', async () => {
    const pending = await delivery('pending', 0);
    expect(
      await repository.cancelPending(
        { userId, source: { type: 'assistant', id: 1 }, eventTypes: [], createdUpTo: new Date() },
        new Date(),
      ),
    ).toEqual([]);
    expect((await repository.find(userId, pending))?.status).toBe('pending');
    expect(await repository.find(userId + 1, pending)).toBeNull();
  });

  it('cancels only the pending deliveries created up to the switch-off, so one raised after a re-enable survives its late event', async () => {
    const source = { type: 'assistant' as const, id: 2 };
    const insert = (createdAt: Date) => inserted({ assistantId: source.id, createdAt });
    const switchedOff = new Date('2026-05-01T10:00:00Z');
    const before = await insert(new Date('2026-05-01T09:59:59Z'));
    const atTheSwitch = await insert(switchedOff);
    const after = await insert(new Date('2026-05-01T10:00:01Z'));
    const canceled = await repository.cancelPending(
      { userId, source, eventTypes: ['post_call'], createdUpTo: switchedOff },
      new Date(),
    );
    expect(canceled.sort()).toEqual([before, atTheSwitch].sort());
    expect((await repository.find(userId, after))?.status).toBe('pending');
  });
});

describe('claim and settlement in one statement each', () => {
  async function claimed(): Promise<{ id: string; state: DeliveryForSettlement }> {
    const now = new Date();
    const id = await inserted({ assistantId: 3, createdAt: now });
    const claim = await repository.claim(id, now, {
      token: `lease_${counter}`,
      until: new Date(now.getTime() + 30_000),
    });
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    return { id, state: claim.held.state };
  }
  const success = (number: number): DeliverySettlement => ({
    status: 'succeeded',
    nextAttemptAt: null,
    roundAttempts: 1,
    lastError: null,
    attempt: { number, at: new Date(), statusCode: 200, durationMs: 3, error: null, responseExcerpt: 'ok' },
  });
  const attemptsOf = async (id: string) => (await repository.attempts(id)).map((a) => a.number);

  it("claims with the state an outcome is judged against and the owner's signing secret, rotation included", async () => {
    await database.query(
      `INSERT INTO webhook_signing_secrets (user_id, secret, previous_secret, previous_expires_at) VALUES ($1, 'whsec_new', 'whsec_old', $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, previous_secret = EXCLUDED.previous_secret, previous_expires_at = EXCLUDED.previous_expires_at`,
      [userId, new Date('2030-01-01T00:00:00Z')],
    );
    const now = new Date();
    const id = await inserted({ assistantId: 3, createdAt: now, body: '{"a":1}' });
    const claim = await repository.claim(id, now, { token: 'lease_secret', until: new Date(now.getTime() + 30_000) });
    expect(claim).toMatchObject({
      kind: 'claimed',
      held: {
        delivery: { id, body: '{"a":1}' },
        state: { status: 'pending', attemptsCount: 0, roundAttempts: 0, maxAttempts: 8, leaseToken: 'lease_secret' },
      },
      secret: { secret: 'whsec_new', previousSecret: 'whsec_old', previousExpiresAt: new Date('2030-01-01T00:00:00Z') },
    });
  });

  it('settles a delivery still as it was claimed', async () => {
    const { id, state } = await claimed();
    expect(await repository.settleIfUnchanged(id, state, success(1), new Date())).toBe(true);
    expect(await repository.find(userId, id)).toMatchObject({ status: 'succeeded', attemptsCount: 1 });
    expect(await attemptsOf(id)).toEqual([1]);
    expect(await settlementState(id)).toMatchObject({ leaseToken: null, roundAttempts: 1 });
  });

  it.each([
    ['canceled meanwhile', `UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL WHERE id = $1`],
    [
      'replayed meanwhile (a new round)',
      `UPDATE webhook_deliveries SET round_attempts = 3, max_attempts = 8 WHERE id = $1`,
    ],
    ['held by another attempt', `UPDATE webhook_deliveries SET lease_token = 'lease_other' WHERE id = $1`],
    ['attempted by someone else', `UPDATE webhook_deliveries SET attempts_count = 1 WHERE id = $1`],
  ])('writes nothing when the delivery was %s', async (_name, change) => {
    const { id, state } = await claimed();
    await database.query(change, [id]);
    const before = await settlementState(id);
    expect(await repository.settleIfUnchanged(id, state, success(1), new Date())).toBe(false);
    expect(await settlementState(id)).toEqual(before);
    expect(await attemptsOf(id)).toEqual([]);
  });
});
