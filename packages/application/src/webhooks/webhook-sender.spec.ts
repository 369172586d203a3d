import { FakeStore, RecordingLogger, ScriptedHttpClient } from '@voiceplane/adapter-fakes';
import { RETRY_DELAYS_SECONDS } from '@voiceplane/domain';
import { DELIVERY_ATTEMPT_JOB, deliveryJobKey, WebhookDeliveries } from './webhook-deliveries';
import { DELIVERY_SWEEP_EVERY_MS, DELIVERY_SWEEP_JOB, WebhookSender } from './webhook-sender';

const START = new Date('2030-05-01T12:00:00.000Z');
const TARGET = 'https://hooks.example.com/in';

async function setup(options: { random?: number } = {}) {
  const store = new FakeStore(START);
  const http = new ScriptedHttpClient();
  const log = new RecordingLogger();
  const deliveries = new WebhookDeliveries(
    store.uow,
    store.deliveries,
    store.outbox,
    store.jobs,
    store.ids,
    store.clock,
  );
  const sender = new WebhookSender(
    store.deliveries,
    store.secrets,
    { http, scheduler: store.jobs, random: () => options.random ?? 0.5 },
    store.clock,
    store.ids,
    log,
    { leaseMs: 30_000 },
  );
  const user = await store.account();
  const enqueue = () =>
    deliveries.enqueue({
      userId: user.id,
      eventType: 'post_call',
      targetUrl: TARGET,
      payload: { id: 7, status: 'completed' },
      source: { type: 'assistant', id: 3 },
      subject: { type: 'call', id: 7 },
    });
  const delivery = async (id: string) => (await store.deliveries.find(user.id, id))!;
  const attemptJobs = () =>
    store.jobs
      .jobs()
      .filter((j) => j.kind === DELIVERY_ATTEMPT_JOB)
      .map((j) => ({ key: j.key, runAt: j.runAt }));
  return { store, http, log, deliveries, sender, user, enqueue, delivery, attemptJobs };
}

describe('WebhookSender', () => {
  it("sends the stored bytes once, signed with the account's secret, and records the success", async () => {
    const { store, http, sender, user, enqueue, delivery, attemptJobs } = await setup();
    const { deliveryId, webhookId } = await enqueue();
    http.answer({ statusCode: 204 });

    await sender.attemptIfDue(deliveryId);

    const secret = (await store.secrets.get(user.id))!.secret;
    expect(http.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: TARGET,
        body: '{"id":7,"status":"completed"}',
        eventType: 'post_call',
        signing: { secrets: [secret], webhookId },
      }),
    ]);
    expect(await delivery(deliveryId)).toEqual(
      expect.objectContaining({
        status: 'succeeded',
        attemptsCount: 1,
        nextAttemptAt: null,
        lastStatusCode: 204,
        lastError: null,
      }),
    );
    expect(await store.deliveries.attempts(deliveryId)).toEqual([
      { number: 1, at: START, statusCode: 204, durationMs: 25, error: null, responseExcerpt: null },
    ]);
    expect(attemptJobs()).toEqual([]);
    await sender.attemptIfDue(deliveryId);
    expect(http.requests).toHaveLength(1);
  });

  it('retries on the documented schedule and gives up after the eighth attempt', async () => {
    const { store, http, sender, enqueue, delivery, attemptJobs } = await setup();
    const { deliveryId } = await enqueue();

    for (const [i, seconds] of RETRY_DELAYS_SECONDS.entries()) {
      http.answer({ statusCode: 500, body: 'down' });
      await sender.attemptIfDue(deliveryId);
      const due = new Date(store.clock.now().getTime() + seconds * 1000);
      expect(await delivery(deliveryId)).toEqual(
        expect.objectContaining({
          status: 'pending',
          attemptsCount: i + 1,
          nextAttemptAt: due,
          lastError: 'http_error',
        }),
      );
      expect(attemptJobs()).toEqual([{ key: deliveryJobKey(deliveryId), runAt: due }]);
      store.clock.set(due);
    }
    http.answer({ statusCode: 500 });
    await sender.attemptIfDue(deliveryId);

    expect(await delivery(deliveryId)).toEqual(
      expect.objectContaining({ status: 'failed', attemptsCount: 8, nextAttemptAt: null }),
    );
    expect(http.requests).toHaveLength(8);
    expect((await store.deliveries.attempts(deliveryId))[0].responseExcerpt).toBe('down');
  });

  it('spreads retries by the jitter and honours a longer Retry-After of a 503', async () => {
    const early = await setup({ random: 0 });
    const { deliveryId } = await early.enqueue();
    early.http.answer({ statusCode: 500 });
    await early.sender.attemptIfDue(deliveryId);
    expect((await early.delivery(deliveryId)).nextAttemptAt).toEqual(new Date(START.getTime() + 4_500));

    const throttled = await setup();
    const second = await throttled.enqueue();
    throttled.http.answer({ statusCode: 503, headers: { 'retry-after': '120' } });
    await throttled.sender.attemptIfDue(second.deliveryId);
    expect((await throttled.delivery(second.deliveryId)).nextAttemptAt).toEqual(new Date(START.getTime() + 120_000));
  });

  it('stops at once on 410 Gone', async () => {
    const { http, sender, enqueue, delivery, attemptJobs } = await setup();
    const { deliveryId } = await enqueue();
    http.answer({ statusCode: 410 });

    await sender.attemptIfDue(deliveryId);

    expect(await delivery(deliveryId)).toEqual(
      expect.objectContaining({ status: 'failed', attemptsCount: 1, lastStatusCode: 410 }),
    );
    expect(attemptJobs()).toEqual([]);
  });

  it('sends nothing before the next attempt is due or while another attempt holds the delivery, and comes back then', async () => {
    const { store, http, sender, enqueue, attemptJobs } = await setup();
    const early = (await enqueue()).deliveryId;
    const held = (await enqueue()).deliveryId;
    http.answer({ statusCode: 500 });
    await sender.attemptIfDue(early);
    store.clock.advance(1_000);
    await store.deliveries.claim(held, store.clock.now(), {
      token: 'lease_other',
      until: new Date(store.clock.now().getTime() + 30_000),
    });

    await sender.attemptIfDue(early);
    await sender.attemptIfDue(held);

    expect(http.requests).toHaveLength(1);
    expect(attemptJobs()).toEqual([
      { key: deliveryJobKey(early), runAt: new Date(START.getTime() + 5_000) },
      { key: deliveryJobKey(held), runAt: new Date(START.getTime() + 31_000) },
    ]);
  });

  it('leaves a delivery canceled during its attempt canceled, unless the attempt got through', async () => {
    const { http, deliveries, sender, user, enqueue, delivery, attemptJobs } = await setup();
    const failed = (await enqueue()).deliveryId;
    const cancel = () =>
      deliveries.cancelPending({
        userId: user.id,
        source: { type: 'assistant', id: 3 },
        eventTypes: ['post_call'],
        createdUpTo: START,
      });
    http.answer(async () => {
      await cancel();
      return { statusCode: 500 };
    });

    await sender.attemptIfDue(failed);

    expect(await delivery(failed)).toEqual(
      expect.objectContaining({ status: 'canceled', attemptsCount: 1, nextAttemptAt: null }),
    );
    expect(attemptJobs()).toEqual([]);

    await deliveries.replay(user.id, failed);
    http.answer(async () => {
      await cancel();
      return { statusCode: 200 };
    });
    await sender.attemptIfDue(failed);
    expect(await delivery(failed)).toEqual(expect.objectContaining({ status: 'succeeded', attemptsCount: 2 }));
  });

  it('reschedules deliveries overdue for longer than the grace, then the next sweep', async () => {
    const { store, log, sender, enqueue, attemptJobs } = await setup();
    const overdue = (await enqueue()).deliveryId;
    store.clock.advance(20_000);
    await enqueue();
    store.clock.advance(15_000);

    expect(await sender.sweepOverdue()).toBe(1);

    expect(attemptJobs()).toEqual([{ key: deliveryJobKey(overdue), runAt: store.clock.now() }]);
    expect(
      store.jobs
        .jobs()
        .filter((j) => j.kind === DELIVERY_SWEEP_JOB)
        .map((j) => j.runAt),
    ).toEqual([new Date(store.clock.now().getTime() + DELIVERY_SWEEP_EVERY_MS)]);
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', details: { deliveries: 1 } })]);
  });
});
