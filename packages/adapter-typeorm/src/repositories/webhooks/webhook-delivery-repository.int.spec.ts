import { createTestDatabase, TestDatabase } from '@voiceplane/test-env';
import { Database } from '../../database';
import { TypeormWebhookDeliveryRepository } from './webhook-delivery-repository';

let db: TestDatabase;
let database: Database;
let repository: TypeormWebhookDeliveryRepository;
let userId: number;

beforeAll(async () => {
  db = await createTestDatabase();
  database = new Database(db.dataSource);
  repository = new TypeormWebhookDeliveryRepository(database);
  const [user] = await database.query<{ id: string }>(`INSERT INTO users (name, email, plan) VALUES ('R', 'r@example.test', '{}') RETURNING id`);
  userId = Number(user.id);
});
afterAll(async () => db.close());

let counter = 0;
async function delivery(status: string, updatedDaysAgo: number): Promise<string> {
  counter++;
  const id = `dlv_${String(counter).padStart(22, '0')}`;
  const now = new Date();
  await repository.insert({
    id, webhookId: `msg_${String(counter).padStart(22, '0')}`, userId, eventType: 'post_call', targetUrl: 'https://hooks.example.com/x',
    body: '{}', source: { type: 'assistant', id: 1 }, subject: null, requestId: null, maxAttempts: 8, now,
  });
  await database.query(`UPDATE webhook_deliveries SET status = $2, updated_at = now() - make_interval(days => $3) WHERE id = $1`, [id, status, updatedDaysAgo]);
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
    expect(await repository.cancelPending({ userId, source: { type: 'assistant', id: 1 }, eventTypes: [], createdUpTo: new Date() }, new Date())).toEqual([]);
    expect((await repository.find(userId, pending))?.status).toBe('pending');
    expect(await repository.find(userId + 1, pending)).toBeNull();
  });

  it('cancels only the pending deliveries created up to the switch-off, so one raised after a re-enable survives its late event', async () => {
    const source = { type: 'assistant' as const, id: 2 };
    const insert = async (createdAt: Date) => {
      counter++;
      const id = `dlv_${String(counter).padStart(22, '0')}`;
      await repository.insert({
        id, webhookId: `msg_${String(counter).padStart(22, '0')}`, userId, eventType: 'post_call', targetUrl: 'https://hooks.example.com/y',
        body: '{}', source, subject: null, requestId: null, maxAttempts: 8, now: createdAt,
      });
      return id;
    };
    const switchedOff = new Date('2026-05-01T10:00:00Z');
    const before = await insert(new Date('2026-05-01T09:59:59Z'));
    const atTheSwitch = await insert(switchedOff);
    const after = await insert(new Date('2026-05-01T10:00:01Z'));
    const canceled = await repository.cancelPending({ userId, source, eventTypes: ['post_call'], createdUpTo: switchedOff }, new Date());
    expect(canceled.sort()).toEqual([before, atTheSwitch].sort());
    expect((await repository.find(userId, after))?.status).toBe('pending');
  });
});
