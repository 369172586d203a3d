import {
  DeliveryForSettlement,
  DeliverySettlement,
  NewDelivery,
  NewJob,
  SigningSecretRepository,
  UnitOfWork,
  WebhookDeliveryRepository,
} from '@voiceplane/application';
import { err, ok } from '@voiceplane/domain';

export interface WebhookDeliveryFixture {
  readonly deliveries: WebhookDeliveryRepository;
  readonly secrets: SigningSecretRepository;
  readonly uow: UnitOfWork;
  /** Two accounts deliveries may belong to. */
  readonly users: readonly [number, number];
  /** What the outbox the repository writes to holds, oldest first. */
  readonly events: () => Promise<Array<{ topic: string; payload: unknown }>>;
  /** What the scheduler the repository writes to holds. */
  readonly jobs: () => Promise<Array<{ kind: string; key: string | null; payload: unknown; runAt: Date }>>;
}

const T0 = new Date('2030-04-01T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const lease = (token: string, untilSeconds: number) => ({ token, until: at(untilSeconds) });

const failedAttempt = (number: number, nextAttemptAt: Date | null, roundAttempts = number): DeliverySettlement => ({
  status: nextAttemptAt ? 'pending' : 'failed',
  nextAttemptAt,
  roundAttempts,
  lastError: 'http_error',
  attempt: { number, at: at(1), statusCode: 500, durationMs: 12, error: 'http_error', responseExcerpt: 'oops' },
});
const succeeded = (number: number): DeliverySettlement => ({
  status: 'succeeded',
  nextAttemptAt: null,
  roundAttempts: number,
  lastError: null,
  attempt: { number, at: at(2), statusCode: 204, durationMs: 7, error: null, responseExcerpt: null },
});

/** The WebhookDeliveryRepository port's behaviour, run against every implementation. `open` gives an empty store for each test. */
export function webhookDeliveryRepositoryContract(name: string, open: () => Promise<WebhookDeliveryFixture>): void {
  describe(`WebhookDeliveryRepository contract: ${name}`, () => {
    let f: WebhookDeliveryFixture;
    let counter = 0;
    const insert = (over: Partial<NewDelivery> = {}) => {
      counter++;
      return f.deliveries.insert({
        id: `dlv_${String(counter).padStart(22, '0')}`,
        webhookId: `msg_${String(counter).padStart(22, '0')}`,
        userId: f.users[0],
        eventType: 'post_call',
        targetUrl: 'https://hooks.example.com/x',
        body: '{"b":1,"a":2}',
        source: { type: 'assistant', id: 7 },
        subject: { type: 'call', id: 42 },
        requestId: null,
        maxAttempts: 8,
        now: T0,
        ...over,
      });
    };

    /** Writes a settlement whatever the row holds. */
    const settle = async (id: string, settlement: DeliverySettlement, now: Date) => {
      expect(await f.deliveries.settleLocked(id, async () => ok({ settlement, at: now }))).toEqual(ok(undefined));
    };
    /** The row's settlement state, read under its lock by a settlement that then refuses. */
    const settlementState = async (id: string): Promise<DeliveryForSettlement | null> => {
      const read = await f.deliveries.settleLocked(id, async (current) => err(current));
      return read.ok || 'code' in read.error ? null : read.error;
    };
    const retryJob = (id: string, runAt: Date): NewJob => ({
      kind: 'webhook.delivery.attempt',
      key: `webhook-delivery:${id}`,
      payload: { delivery_id: id },
      runAt,
    });

    beforeEach(async () => {
      f = await open();
    });

    it('stores a pending delivery due at once and shows it to its owner only', async () => {
      const d = await insert();

      expect(d).toEqual({
        id: d.id,
        userId: f.users[0],
        eventType: 'post_call',
        webhookId: d.webhookId,
        targetUrl: 'https://hooks.example.com/x',
        body: '{"b":1,"a":2}',
        status: 'pending',
        attemptsCount: 0,
        nextAttemptAt: T0,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastError: null,
        source: { type: 'assistant', id: 7 },
        subject: { type: 'call', id: 42 },
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await f.deliveries.find(f.users[0], d.id)).toEqual(d);
      expect(await f.deliveries.find(f.users[1], d.id)).toBeNull();
      expect(await f.deliveries.attempts(d.id)).toEqual([]);
    });

    it("lets one attempt claim a due delivery, with the owner's signing secret, and tells others when to come back", async () => {
      await f.secrets.create(f.users[0], 'whsec_contract');
      const d = await insert();

      const claim = await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      expect(claim).toEqual({
        kind: 'claimed',
        held: {
          delivery: d,
          state: { status: 'pending', attemptsCount: 0, roundAttempts: 0, maxAttempts: 8, leaseToken: 'lease_a' },
        },
        secret: expect.objectContaining({ secret: 'whsec_contract', previousSecret: null, previousExpiresAt: null }),
      });
      expect(await f.deliveries.claim(d.id, at(1), lease('lease_b', 31))).toEqual({ kind: 'busy', until: at(30) });

      await settle(d.id, failedAttempt(1, at(60)), at(1));
      expect(await f.deliveries.claim(d.id, at(2), lease('lease_c', 32))).toEqual({ kind: 'not_due', at: at(60) });
      expect(await f.deliveries.claim(d.id, at(60), lease('lease_d', 90))).toEqual(
        expect.objectContaining({ kind: 'claimed' }),
      );
      await settle(d.id, succeeded(2), at(61));
      expect(await f.deliveries.claim(d.id, at(120), lease('lease_e', 150))).toEqual({ kind: 'settled' });
      expect(await f.deliveries.claim('dlv_missing', at(0), lease('lease_f', 30))).toEqual({ kind: 'settled' });
    });

    it('claims without a secret when the account has none', async () => {
      const d = await insert({ userId: f.users[1] });

      expect(await f.deliveries.claim(d.id, at(0), lease('lease_a', 30))).toEqual(
        expect.objectContaining({ kind: 'claimed', secret: null }),
      );
    });

    it("writes each attempt with the delivery's new state and releases the lease", async () => {
      const d = await insert();
      await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      await settle(d.id, failedAttempt(1, at(60)), at(1));

      expect(await f.deliveries.find(f.users[0], d.id)).toEqual({
        ...d,
        attemptsCount: 1,
        nextAttemptAt: at(60),
        lastAttemptAt: at(1),
        lastStatusCode: 500,
        lastError: 'http_error',
        updatedAt: at(1),
      });
      expect(await settlementState(d.id)).toEqual({
        status: 'pending',
        attemptsCount: 1,
        roundAttempts: 1,
        maxAttempts: 8,
        leaseToken: null,
      });
      expect(await f.deliveries.attempts(d.id)).toEqual([
        { number: 1, at: at(1), statusCode: 500, durationMs: 12, error: 'http_error', responseExcerpt: 'oops' },
      ]);
    });

    it('settles in one step only while the row is as it was claimed', async () => {
      const d = await insert();
      const claim = await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      if (claim.kind !== 'claimed') throw new Error('not claimed');
      const other = await insert();
      const otherClaim = await f.deliveries.claim(other.id, at(0), lease('lease_b', 30));
      if (otherClaim.kind !== 'claimed') throw new Error('not claimed');
      await f.deliveries.cancelPending(
        { userId: f.users[0], source: { type: 'assistant', id: 7 }, eventTypes: ['post_call'], createdUpTo: T0 },
        at(1),
      );
      await f.deliveries.restartOwned(f.users[0], other.id, async () => ok({ maxAttempts: 8, at: at(1) }));

      expect(await f.deliveries.settleIfUnchanged(d.id, claim.held.state, succeeded(1), at(2))).toBe(false);
      expect((await f.deliveries.find(f.users[0], d.id))?.status).toBe('canceled');
      expect(await f.deliveries.attempts(d.id)).toEqual([]);
      expect(await f.deliveries.settleIfUnchanged(other.id, otherClaim.held.state, succeeded(1), at(2))).toBe(true);
      expect((await f.deliveries.find(f.users[0], other.id))?.status).toBe('succeeded');
      expect(await f.deliveries.attempts(other.id)).toHaveLength(1);
    });

    it('cancels the pending deliveries of a source and event type created up to the switch-off, and nothing else', async () => {
      const early = await insert();
      const late = await insert({ now: at(10) });
      const otherSource = await insert({ source: { type: 'assistant', id: 8 } });
      const otherType = await insert({ eventType: 'test' });
      const settled = await insert();
      await f.deliveries.claim(settled.id, at(0), lease('lease_a', 30));
      await settle(settled.id, succeeded(1), at(1));

      const canceled = await f.deliveries.cancelPending(
        { userId: f.users[0], source: { type: 'assistant', id: 7 }, eventTypes: ['post_call'], createdUpTo: at(5) },
        at(6),
      );

      expect(canceled).toEqual([early.id]);
      expect(await f.deliveries.find(f.users[0], early.id)).toEqual(
        expect.objectContaining({ status: 'canceled', nextAttemptAt: null, updatedAt: at(6) }),
      );
      for (const id of [late.id, otherSource.id, otherType.id])
        expect((await f.deliveries.find(f.users[0], id))?.status).toBe('pending');
      expect(
        await f.deliveries.cancelPending(
          { userId: f.users[0], source: { type: 'assistant', id: 7 }, eventTypes: [], createdUpTo: at(60) },
          at(6),
        ),
      ).toEqual([]);
    });

    it('restarts a settled delivery with a fresh round, keeping its attempts', async () => {
      const d = await insert({ maxAttempts: 1 });
      await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      await settle(d.id, failedAttempt(1, null), at(1));

      let locked: { status: string } | undefined;
      const result = await f.deliveries.restartOwned(f.users[0], d.id, async (delivery) => {
        locked = delivery;
        return ok({ maxAttempts: 8, at: at(100) });
      });
      const restarted = result.ok ? result.value : null;

      expect(locked?.status).toBe('failed');
      expect(await f.deliveries.find(f.users[1], d.id)).toBeNull();
      expect(restarted).toEqual(
        expect.objectContaining({ status: 'pending', attemptsCount: 1, nextAttemptAt: at(100), updatedAt: at(100) }),
      );
      expect(await settlementState(d.id)).toEqual({
        status: 'pending',
        attemptsCount: 1,
        roundAttempts: 0,
        maxAttempts: 8,
        leaseToken: null,
      });
    });

    it('settles against the row as locked, and schedules the retry decided with it', async () => {
      const d = await insert();
      await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      const seen: DeliveryForSettlement[] = [];

      const result = await f.deliveries.settleLocked(d.id, async (current) => {
        seen.push(current);
        return ok({ settlement: failedAttempt(1, at(60)), at: at(1), retry: retryJob(d.id, at(60)) });
      });

      expect(result).toEqual(ok(undefined));
      expect(seen).toEqual([
        { status: 'pending', attemptsCount: 0, roundAttempts: 0, maxAttempts: 8, leaseToken: 'lease_a' },
      ]);
      expect(await f.deliveries.find(f.users[0], d.id)).toEqual(
        expect.objectContaining({ status: 'pending', attemptsCount: 1, nextAttemptAt: at(60), updatedAt: at(1) }),
      );
      expect(await f.deliveries.attempts(d.id)).toHaveLength(1);
      expect(await settlementState(d.id)).toEqual({
        status: 'pending',
        attemptsCount: 1,
        roundAttempts: 1,
        maxAttempts: 8,
        leaseToken: null,
      });
      expect(await f.jobs()).toEqual([
        expect.objectContaining({
          kind: 'webhook.delivery.attempt',
          key: `webhook-delivery:${d.id}`,
          payload: { delivery_id: d.id },
          runAt: at(60),
        }),
      ]);
    });

    it('writes nothing when the settlement refuses, and tells a missing delivery', async () => {
      const d = await insert();
      await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));

      expect(await f.deliveries.settleLocked(d.id, async () => err('lease_lost' as const))).toEqual(err('lease_lost'));
      expect(await f.deliveries.find(f.users[0], d.id)).toEqual(d);
      expect(await f.deliveries.attempts(d.id)).toEqual([]);
      expect(await settlementState(d.id)).toEqual({
        status: 'pending',
        attemptsCount: 0,
        roundAttempts: 0,
        maxAttempts: 8,
        leaseToken: 'lease_a',
      });
      const decide = jest.fn(async () => ok({ settlement: succeeded(1), at: at(1) }));
      expect(await f.deliveries.settleLocked('dlv_missing', decide)).toEqual(err({ code: 'delivery_not_found' }));
      expect(decide).not.toHaveBeenCalled();
      expect(await f.jobs()).toEqual([]);
    });

    it("restarts the owner's delivery with the events decided with it; another user's or a refused one stays as it is", async () => {
      const d = await insert({ maxAttempts: 1 });
      await f.deliveries.claim(d.id, at(0), lease('lease_a', 30));
      await settle(d.id, failedAttempt(1, null), at(1));
      const failed = await f.deliveries.find(f.users[0], d.id);
      const event = { topic: 'webhook.delivery.requested', payload: { delivery_id: d.id } };

      const decide = jest.fn(async () => ok({ maxAttempts: 8, at: at(100), events: [event] }));
      expect(await f.deliveries.restartOwned(f.users[1], d.id, decide)).toEqual(err({ code: 'delivery_not_found' }));
      expect(decide).not.toHaveBeenCalled();
      expect(await f.deliveries.restartOwned(f.users[0], d.id, async () => err('already_pending' as const))).toEqual(
        err('already_pending'),
      );
      expect(await f.deliveries.find(f.users[0], d.id)).toEqual(failed);
      expect(await f.events()).toEqual([]);

      const restarted = await f.deliveries.restartOwned(f.users[0], d.id, decide);

      expect(restarted).toEqual(
        ok(
          expect.objectContaining({
            id: d.id,
            status: 'pending',
            attemptsCount: 1,
            nextAttemptAt: at(100),
            updatedAt: at(100),
          }),
        ),
      );
      expect(await f.deliveries.find(f.users[0], d.id)).toEqual(restarted.ok ? restarted.value : null);
      expect(await f.events()).toEqual([event]);
      expect(await settlementState(d.id)).toEqual({
        status: 'pending',
        attemptsCount: 1,
        roundAttempts: 0,
        maxAttempts: 8,
        leaseToken: null,
      });
    });

    it('finds overdue deliveries nobody holds, longest overdue first', async () => {
      const older = await insert({ now: at(-60) });
      const held = await insert({ now: at(-50) });
      const newer = await insert({ now: at(-40) });
      await insert({ now: at(0) });
      await f.deliveries.claim(held.id, at(0), lease('lease_a', 30));

      expect(await f.deliveries.overdue(at(-30), at(0), 10)).toEqual([older.id, newer.id]);
      expect(await f.deliveries.overdue(at(-30), at(0), 1)).toEqual([older.id]);
      expect(await f.deliveries.overdue(at(-30), at(31), 10)).toEqual([older.id, held.id, newer.id]);
    });

    it("lists a user's deliveries newest first, filtered", async () => {
      const a = await insert();
      const b = await insert({ eventType: 'test' });
      const c = await insert({ source: { type: 'assistant', id: 8 } });
      await insert({ userId: f.users[1] });

      const all = await f.deliveries.list(f.users[0], {}, { page: 1, perPage: 2 });
      expect(all.total).toBe(3);
      expect(all.items.map((d) => d.id)).toEqual([c.id, b.id]);
      expect(
        (
          await f.deliveries.list(f.users[0], { eventType: 'post_call', sourceId: 7 }, { page: 1, perPage: 15 })
        ).items.map((d) => d.id),
      ).toEqual([a.id]);
    });
  });
}
