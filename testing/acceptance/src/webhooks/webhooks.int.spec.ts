import {
  DELIVERY_SWEEP_JOB,
  DELIVERY_SWEEP_KEY,
  DeliveryRequest,
  JobScheduler,
  MessageBus,
  Outbox,
  TOKENS,
  WebhookDeliveries,
  WebhookDeliveryRepository,
  WebhookSender,
} from '@voiceplane/application';
import { createTestApi, roomInTheMinute, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually, verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';

const DLV = /^dlv_[0-9A-Za-z]{22}$/;
const MSG = /^msg_[0-9A-Za-z]{22}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let t: TestApi;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});
beforeEach(() => receiver.respondWith(() => ({ status: 200, body: 'ok' })));

const deliveries = () => t.runtime.container.get<WebhookDeliveries>(TOKENS.WebhookDeliveries);

function postCall(user: TestUser, overrides: Partial<DeliveryRequest> = {}): DeliveryRequest {
  return {
    userId: user.id,
    eventType: 'post_call',
    targetUrl: receiver.url('/calls'),
    payload: { id: 4812, assistant_id: 101, status: 'completed', transcript: 'AI: Hello\nCustomer: Hi!', lead: null },
    source: { type: 'assistant', id: 101 },
    subject: { type: 'call', id: 4812 },
    ...overrides,
  };
}

async function secretOf(user: TestUser): Promise<string> {
  return (await t.http.get('/api/user/webhooks/signing-secret').set(user.auth)).body.secret;
}

async function deliveryOf(user: TestUser, id: string) {
  const res = await t.http.get(`/api/user/webhooks/deliveries/${id}`).set(user.auth);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function settled(user: TestUser, id: string, status = 'succeeded') {
  let last: { status: string } | undefined;
  await eventually(async () => (last = await deliveryOf(user, id)).status === status, `delivery ${id} to be ${status}`);
  return deliveryOf(user, id);
}

/** Brings a pending delivery's next attempt forward to now, as if its wait had passed. */
async function fastForward(id: string): Promise<void> {
  await t.db.dataSource.query(
    `UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1 AND status = 'pending'`,
    [id],
  );
  await t.db.dataSource.query(`UPDATE scheduled_jobs SET run_at = now() WHERE key = $1`, [`webhook-delivery:${id}`]);
}

describe('delivering an event', () => {
  it('sends one signed POST with the exact payload bytes and logs the attempt', async () => {
    const user = await t.createUser();
    const payload = {
      id: 4812,
      assistant_id: 101,
      customer_phone: '+14155551234',
      duration: 87,
      status: 'completed',
      extracted_variables: { z: 1, a: 2 },
      lead: null,
    };
    const enqueued = await deliveries().enqueue(postCall(user, { payload }));
    expect(enqueued.deliveryId).toMatch(DLV);
    expect(enqueued.webhookId).toMatch(MSG);

    const detail = await settled(user, enqueued.deliveryId);
    const [hook, ...more] = receiver.forId(enqueued.webhookId);
    expect(more).toEqual([]);
    expect(hook.path).toBe('/calls');
    expect(hook.body).toBe(JSON.stringify(payload));
    expect(hook.eventType).toBe('post_call');
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['user-agent']).toBe('voiceplane/1.0.0');
    expect(Math.abs(Number(hook.timestamp) - Date.now() / 1000)).toBeLessThan(10);
    expect(hook.signature).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
    expect(verifyWithReference(await secretOf(user), hook)).toEqual(payload);

    expect(detail).toEqual({
      id: enqueued.deliveryId,
      event_type: 'post_call',
      webhook_id: enqueued.webhookId,
      target_url: receiver.url('/calls'),
      status: 'succeeded',
      attempts_count: 1,
      next_attempt_at: null,
      last_attempt_at: expect.stringMatching(ISO),
      last_status_code: 200,
      last_error: null,
      source: { type: 'assistant', id: 101 },
      subject: { type: 'call', id: 4812 },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      payload,
      attempts: [
        {
          number: 1,
          at: detail.last_attempt_at,
          status_code: 200,
          duration_ms: expect.any(Number),
          error: null,
          response_excerpt: 'ok',
        },
      ],
    });
    expect(Object.keys(detail.payload)).toEqual(Object.keys(payload));
  });

  it('retries a failing receiver on the schedule, with the same webhook-id every time, until it answers 2xx', async () => {
    const user = await t.createUser();
    receiver.respondWith((_hook, seenBefore) =>
      seenBefore < 2 ? { status: 500, body: 'not yet' } : { status: 200, body: 'ok' },
    );
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));

    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    const afterFirst = await deliveryOf(user, deliveryId);
    expect(afterFirst).toMatchObject({
      status: 'pending',
      attempts_count: 1,
      last_status_code: 500,
      last_error: 'http_error',
    });
    expect(afterFirst.attempts).toEqual([
      {
        number: 1,
        at: afterFirst.last_attempt_at,
        status_code: 500,
        duration_ms: expect.any(Number),
        error: 'http_error',
        response_excerpt: 'not yet',
      },
    ]);
    expect(waitAfter(afterFirst)).toBeGreaterThanOrEqual(4_400);
    expect(waitAfter(afterFirst)).toBeLessThanOrEqual(5_600);

    await fastForward(deliveryId);
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 2, 'the second attempt');
    const afterSecond = await deliveryOf(user, deliveryId);
    expect(afterSecond.status).toBe('pending');
    expect(waitAfter(afterSecond)).toBeGreaterThanOrEqual(26_900);
    expect(waitAfter(afterSecond)).toBeLessThanOrEqual(33_100);

    await fastForward(deliveryId);
    const done = await settled(user, deliveryId);
    expect(done).toMatchObject({
      status: 'succeeded',
      attempts_count: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(done.attempts.map((a: { number: number; status_code: number }) => [a.number, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    const hooks = receiver.forId(webhookId);
    expect(hooks).toHaveLength(3);
    const secret = await secretOf(user);
    for (const hook of hooks) expect(verifyWithReference(secret, hook)).toEqual(postCall(user).payload);
    expect(await jobsFor(deliveryId)).toBe(0);
  });

  it('gives up after the 8th failed attempt', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 503, body: 'down' }));
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    for (let attempt = 1; attempt <= 7; attempt++) {
      await eventually(
        async () => (await deliveryOf(user, deliveryId)).attempts_count === attempt,
        `attempt ${attempt}`,
      );
      await fastForward(deliveryId);
    }
    const done = await settled(user, deliveryId, 'failed');
    expect(done).toMatchObject({
      status: 'failed',
      attempts_count: 8,
      next_attempt_at: null,
      last_status_code: 503,
      last_error: 'http_error',
    });
    expect(done.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(receiver.timesReceived(webhookId)).toBe(8);
    expect(await jobsFor(deliveryId)).toBe(0);
  });

  it('stops at once on 410 Gone', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 410, body: 'gone' }));
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    const done = await settled(user, deliveryId, 'failed');
    expect(done).toMatchObject({
      attempts_count: 1,
      last_status_code: 410,
      last_error: 'http_error',
      next_attempt_at: null,
    });
    expect(receiver.timesReceived(webhookId)).toBe(1);
    expect(await jobsFor(deliveryId)).toBe(0);
  });

  it.each([
    ['429', 429, 120_000],
    ['503', 503, 120_000],
  ])('waits at least as long as a Retry-After on %s asks', async (_name, status, atLeastMs) => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status, headers: { 'retry-after': '120' }, body: 'slow down' }));
    const { deliveryId } = await deliveries().enqueue(postCall(user));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    const detail = await deliveryOf(user, deliveryId);
    expect(detail.status).toBe('pending');
    expect(waitAfter(detail)).toBeGreaterThanOrEqual(atLeastMs);
    expect(waitAfter(detail)).toBeLessThanOrEqual(atLeastMs + 2_000);
  });

  it('ignores Retry-After on other statuses', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 500, headers: { 'retry-after': '3600' }, body: '' }));
    const { deliveryId } = await deliveries().enqueue(postCall(user));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    const detail = await deliveryOf(user, deliveryId);
    expect(waitAfter(detail)).toBeLessThanOrEqual(5_600);
    expect(detail.attempts[0].response_excerpt).toBeNull();
  });

  it('keeps the first 1,000 characters of a response', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 500, body: `${'x'.repeat(999)}é${'y'.repeat(4_000)}` }));
    const { deliveryId } = await deliveries().enqueue(postCall(user));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    expect((await deliveryOf(user, deliveryId)).attempts[0].response_excerpt).toBe(`${'x'.repeat(999)}é`);
  });

  it('gives up on an attempt after 10 seconds and retries it', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 200, delayMs: 12_000, body: 'too late' }));
    const { deliveryId } = await deliveries().enqueue(postCall(user));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the attempt to time out');
    const detail = await deliveryOf(user, deliveryId);
    expect(detail).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'timeout' });
    expect(detail.attempts[0].duration_ms).toBeGreaterThanOrEqual(9_900);
    // The answer would have come at 12 s: anything shorter is the 10 s budget, however late its timer fired.
    expect(detail.attempts[0].duration_ms).toBeLessThan(12_000);
  });

  it('retries a target that refuses connections', async () => {
    const user = await t.createUser();
    const closed = await WebhookReceiver.start();
    const url = closed.url('/gone');
    await closed.close();
    const { deliveryId } = await deliveries().enqueue(postCall(user, { targetUrl: url }));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    expect(await deliveryOf(user, deliveryId)).toMatchObject({
      status: 'pending',
      last_status_code: null,
      last_error: 'connection_failed',
    });
  });

  it('sends once however many workers ask for the same attempt at the same moment', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 200, delayMs: 300, body: 'ok' }));
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    const sender = t.runtime.container.get<WebhookSender>(TOKENS.WebhookSender);
    await Promise.all(Array.from({ length: 5 }, () => sender.attemptIfDue(deliveryId)));
    await settled(user, deliveryId);
    await sender.attemptIfDue(deliveryId);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.timesReceived(webhookId)).toBe(1);
    expect((await deliveryOf(user, deliveryId)).attempts_count).toBe(1);
  });

  it("has the overdue sweep attempt a delivery whose worker died mid-attempt, once that attempt's lease has run out", async () => {
    const user = await t.createUser();
    const repository = t.runtime.container.get<WebhookDeliveryRepository>(TOKENS.WebhookDeliveryRepository);
    const scheduler = t.runtime.container.get<JobScheduler>(TOKENS.JobScheduler);
    const sweepNow = () =>
      scheduler.schedule({ kind: DELIVERY_SWEEP_JOB, key: DELIVERY_SWEEP_KEY, payload: null, runAt: new Date() });
    const lease = { token: 'lease_of_a_dead_worker', until: new Date(Date.now() + 10 * 60_000) };
    // What a worker leaves behind when it is killed after claiming: a held delivery, long due, no job.
    const held = await repository.insert({
      id: 'dlv_DiedMidAttempt00000000',
      webhookId: 'msg_DiedMidAttempt00000000',
      userId: user.id,
      eventType: 'post_call',
      targetUrl: receiver.url('/calls'),
      body: '{"id":1}',
      source: { type: 'assistant', id: 1 },
      subject: null,
      requestId: null,
      maxAttempts: 8,
      now: new Date(Date.now() - 40_000),
      lease,
    });
    // While the dead worker's lease holds, a sweep leaves the delivery alone: no attempt is scheduled for it.
    await t.runtime.container.get<WebhookSender>(TOKENS.WebhookSender).sweepOverdue();
    const attemptJobs = async () =>
      (await t.db.dataSource.query(`SELECT 1 FROM scheduled_jobs WHERE payload->>'delivery_id' = $1`, [held.id]))
        .length;
    expect(await attemptJobs()).toBe(0);
    // The lease runs out: moved to now rather than waited for, so the test does not race the clock.
    const ranOut = new Date();
    await t.db.dataSource.query(`UPDATE webhook_deliveries SET locked_until = $2 WHERE id = $1`, [held.id, ranOut]);
    await sweepNow();
    const done = await settled(user, held.id);
    expect(done.attempts).toHaveLength(1);
    expect(Date.parse(done.attempts[0].at)).toBeGreaterThanOrEqual(ranOut.getTime());
    expect(receiver.timesReceived(held.webhookId)).toBe(1);
  });

  it('leaves a delivery that is merely waiting for its retry to its own job', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 500, body: '' }));
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 1, 'the first attempt');
    const sender = t.runtime.container.get<WebhookSender>(TOKENS.WebhookSender);
    expect(await sender.sweepOverdue()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.timesReceived(webhookId)).toBe(1);
  });

  it('marks a delivery to a blocked target failed at once, without sending anything', async () => {
    const guarded = await createTestApi({ config: { allowPrivateTargets: false } });
    try {
      const user = await guarded.createUser();
      const { deliveryId, webhookId } = await guarded.runtime.container
        .get<WebhookDeliveries>(TOKENS.WebhookDeliveries)
        .enqueue(postCall(user));
      let detail: Record<string, unknown> = {};
      await eventually(async () => {
        detail = (await guarded.http.get(`/api/user/webhooks/deliveries/${deliveryId}`).set(user.auth)).body.data;
        return detail.status === 'failed';
      }, 'the delivery to fail');
      expect(detail).toMatchObject({
        attempts_count: 1,
        last_status_code: null,
        last_error: 'blocked_target',
        next_attempt_at: null,
      });
      expect(detail.attempts).toEqual([
        {
          number: 1,
          at: expect.stringMatching(ISO),
          status_code: null,
          duration_ms: expect.any(Number),
          error: 'blocked_target',
          response_excerpt: null,
        },
      ]);
      expect(receiver.timesReceived(webhookId)).toBe(0);
    } finally {
      await guarded.close();
    }
  });
});

describe('cancellation when a webhook setting is switched off', () => {
  async function emit(topic: string, payload: unknown): Promise<void> {
    const outbox = t.runtime.container.get<Outbox>(TOKENS.Outbox);
    await t.runtime.database.transaction(() => outbox.add([{ topic, payload }]));
  }

  it('cancels only the pending deliveries of the assistant and event types the event names', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    receiver.respondWith(() => ({ status: 500, body: '' }));
    const assistant = 7001;
    const enqueue = (u: TestUser, eventType: DeliveryRequest['eventType'], sourceId: number) =>
      deliveries().enqueue(postCall(u, { eventType, source: { type: 'assistant', id: sourceId } }));
    const postCallOfA = await enqueue(user, 'post_call', assistant);
    const endedOfA = await enqueue(user, 'conversation_ended', assistant);
    const postCallOfB = await enqueue(user, 'post_call', assistant + 1);
    const sameIdOtherUser = await enqueue(other, 'post_call', assistant);
    for (const [u, d] of [
      [user, postCallOfA],
      [user, endedOfA],
      [user, postCallOfB],
      [other, sameIdOtherUser],
    ] as const) {
      await eventually(async () => (await deliveryOf(u, d.deliveryId)).attempts_count === 1, 'a first attempt');
    }

    await emit('assistant.webhook_disabled', { assistant_id: assistant, user_id: user.id });
    await settled(user, postCallOfA.deliveryId, 'canceled');
    expect(await deliveryOf(user, postCallOfA.deliveryId)).toMatchObject({
      status: 'canceled',
      next_attempt_at: null,
      attempts_count: 1,
    });
    expect(await jobsFor(postCallOfA.deliveryId)).toBe(0);
    expect((await deliveryOf(user, endedOfA.deliveryId)).status).toBe('pending');
    expect((await deliveryOf(user, postCallOfB.deliveryId)).status).toBe('pending');
    expect((await deliveryOf(other, sameIdOtherUser.deliveryId)).status).toBe('pending');

    await emit('assistant.conversation_ended_webhook_cleared', { assistant_id: assistant, user_id: user.id });
    await settled(user, endedOfA.deliveryId, 'canceled');
    await emit('assistant.deleted', { assistant_id: assistant + 1, user_id: user.id });
    await settled(user, postCallOfB.deliveryId, 'canceled');
    expect((await deliveryOf(other, sameIdOtherUser.deliveryId)).status).toBe('pending');
  });

  it('handles a redelivered event once', async () => {
    const bus = t.runtime.container.get<MessageBus>(TOKENS.MessageBus);
    const message = {
      id: 'evt_redeliveredAAAAAAAAAAAAA',
      topic: 'assistant.deleted',
      payload: { assistant_id: 1, user_id: 1 },
      occurredAt: new Date().toISOString(),
    };
    await bus.publish([message]);
    await bus.publish([message]);
    await eventually(async () => (await recorded(message.id)) === 1, 'the event to be recorded');
    await new Promise((r) => setTimeout(r, 300));
    expect(await recorded(message.id)).toBe(1);
  });

  it.each([
    ['got through', 200, 'succeeded'],
    ['failed', 500, 'canceled'],
    ['was answered 410 Gone', 410, 'canceled'],
  ])('lets an attempt in flight finish: one that %s (%s) leaves the delivery %s', async (_name, status, final) => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status, delayMs: 800, body: 'late' }));
    const assistant = 7100 + status;
    const { deliveryId, webhookId } = await deliveries().enqueue(
      postCall(user, { source: { type: 'assistant', id: assistant } }),
    );
    await eventually(() => receiver.timesReceived(webhookId) === 1, 'the attempt to start');
    await emit('assistant.webhook_disabled', { assistant_id: assistant, user_id: user.id });
    const whileInFlight = await settled(user, deliveryId, 'canceled');
    expect(whileInFlight.attempts_count).toBe(0);

    await eventually(
      async () => (await deliveryOf(user, deliveryId)).attempts_count === 1,
      'the attempt in flight to be recorded',
    );
    const done = await deliveryOf(user, deliveryId);
    expect(done).toMatchObject({ status: final, attempts_count: 1, last_status_code: status, next_attempt_at: null });
    expect(await jobsFor(deliveryId)).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.timesReceived(webhookId)).toBe(1);
  });
});

describe('GET /api/user/webhooks/deliveries', () => {
  it("lists the account's deliveries newest first, filtered and paged", async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    receiver.respondWith(() => ({ status: 200, body: 'ok' }));
    const first = await deliveries().enqueue(postCall(user));
    const second = await deliveries().enqueue(
      postCall(user, {
        eventType: 'message_status',
        source: { type: 'sender', id: 12 },
        subject: { type: 'chatapp_message', id: 9120 },
      }),
    );
    const third = await deliveries().enqueue(
      postCall(user, {
        eventType: 'conversation_ended',
        source: { type: 'assistant', id: 102 },
        subject: { type: 'conversation', id: 880 },
      }),
    );
    await deliveries().enqueue(postCall(other));
    for (const d of [first, second, third]) await settled(user, d.deliveryId);

    const all = await t.http.get('/api/user/webhooks/deliveries').set(user.auth);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ data: expect.any(Array), current_page: 1, per_page: 15, total: 3, last_page: 1 });
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([
      third.deliveryId,
      second.deliveryId,
      first.deliveryId,
    ]);
    expect(all.body.data[1]).toEqual({
      id: second.deliveryId,
      event_type: 'message_status',
      webhook_id: second.webhookId,
      target_url: receiver.url('/calls'),
      status: 'succeeded',
      attempts_count: 1,
      next_attempt_at: null,
      last_attempt_at: expect.stringMatching(ISO),
      last_status_code: 200,
      last_error: null,
      source: { type: 'sender', id: 12 },
      subject: { type: 'chatapp_message', id: 9120 },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });

    const ids = async (query: string) => {
      const res = await t.http.get(`/api/user/webhooks/deliveries?${query}`).set(user.auth);
      expect(res.status).toBe(200);
      return res.body.data.map((d: { id: string }) => d.id);
    };
    expect(await ids('event_type=post_call')).toEqual([first.deliveryId]);
    expect(await ids('source_type=assistant')).toEqual([third.deliveryId, first.deliveryId]);
    expect(await ids('source_type=assistant&source_id=102')).toEqual([third.deliveryId]);
    expect(await ids('source_id=12')).toEqual([second.deliveryId]);
    expect(await ids('status=succeeded&event_type=message_status')).toEqual([second.deliveryId]);
    expect(await ids('status=failed')).toEqual([]);

    const page = await t.http.get('/api/user/webhooks/deliveries?per_page=2&page=2').set(user.auth);
    expect(page.body).toMatchObject({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([first.deliveryId]);
    const past = await t.http.get('/api/user/webhooks/deliveries?page=9').set(user.auth);
    expect(past.body).toEqual({ data: [], current_page: 9, per_page: 15, total: 3, last_page: 1 });
  });

  it.each([
    ['status=bogus', { status: ['The selected status is invalid.'] }],
    ['event_type=call_ended', { event_type: ['The selected event type is invalid.'] }],
    ['source_type=user', { source_type: ['The selected source type is invalid.'] }],
    ['source_id=abc', { source_id: ['The source id must be an integer.'] }],
    [
      'page=0&per_page=101',
      { page: ['The page must be at least 1.'], per_page: ['The per page must be between 1 and 100.'] },
    ],
  ])('answers 422 for %s', async (query, errors) => {
    const user = await t.createUser();
    const res = await t.http.get(`/api/user/webhooks/deliveries?${query}`).set(user.auth);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors });
  });
});

describe('GET /api/user/webhooks/deliveries/{id} and replay', () => {
  it("treats another account's delivery, an unknown id and a malformed id alike", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const { deliveryId } = await deliveries().enqueue(postCall(owner));
    await settled(owner, deliveryId);
    for (const id of [deliveryId, 'dlv_AAAAAAAAAAAAAAAAAAAAAA', 'dlv_short', '12', 'msg_AAAAAAAAAAAAAAAAAAAAAA']) {
      const get = await t.http.get(`/api/user/webhooks/deliveries/${id}`).set(stranger.auth);
      expect([get.status, get.body]).toEqual([404, { message: 'Delivery not found' }]);
      const replay = await t.http.post(`/api/user/webhooks/deliveries/${id}/replay`).set(stranger.auth);
      expect([replay.status, replay.body]).toEqual([404, { message: 'Delivery not found' }]);
    }
    expect((await deliveryOf(owner, deliveryId)).status).toBe('succeeded');
    const listed = await t.http.get('/api/user/webhooks/deliveries').set(stranger.auth);
    expect(listed.body.total).toBe(0);
  });

  it('replays a settled delivery with the same webhook-id, payload and target, a fresh signature and a restarted schedule', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 410, body: 'gone' }));
    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    const failed = await settled(user, deliveryId, 'failed');

    receiver.respondWith((_hook, seenBefore) =>
      seenBefore === 1 ? { status: 500, body: '' } : { status: 200, body: 'back' },
    );
    const replayed = await t.http.post(`/api/user/webhooks/deliveries/${deliveryId}/replay`).set(user.auth);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual({
      message: 'Delivery queued for replay.',
      data: {
        ...presentedOf(failed),
        status: 'pending',
        next_attempt_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const again = await t.http.post(`/api/user/webhooks/deliveries/${deliveryId}/replay`).set(user.auth);
    expect([again.status, again.body]).toEqual([409, { message: 'Delivery is already pending.' }]);

    // The replay's first attempt fails: the schedule starts over (5 s), not from attempt 2.
    await eventually(async () => (await deliveryOf(user, deliveryId)).attempts_count === 2, 'the replayed attempt');
    const retrying = await deliveryOf(user, deliveryId);
    expect(retrying.status).toBe('pending');
    expect(waitAfter(retrying)).toBeLessThanOrEqual(5_600);
    await fastForward(deliveryId);
    const done = await settled(user, deliveryId);
    expect(done.attempts.map((a: { number: number; status_code: number }) => [a.number, a.status_code])).toEqual([
      [1, 410],
      [2, 500],
      [3, 200],
    ]);

    const hooks = receiver.forId(webhookId);
    expect(hooks).toHaveLength(3);
    expect(new Set(hooks.map((h) => h.body)).size).toBe(1);
    expect(new Set(hooks.map((h) => h.path)).size).toBe(1);
    for (const hook of hooks) expect(verifyWithReference(await secretOf(user), hook)).toEqual(postCall(user).payload);
  });
});

describe('signing secret', () => {
  it('shows the account secret', async () => {
    const user = await t.createUser();
    const res = await t.http.get('/api/user/webhooks/signing-secret').set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.stringMatching(ISO),
      previous_secret_expires_at: null,
    });
  });

  it('rotates: the new secret signs first and the previous one keeps signing for 24 hours', async () => {
    const user = await t.createUser();
    const before = await secretOf(user);
    const res = await t.http.post('/api/user/webhooks/signing-secret/rotate').set(user.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Signing secret rotated.',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.stringMatching(ISO),
      previous_secret_expires_at: expect.stringMatching(ISO),
    });
    const after = res.body.secret as string;
    expect(after).not.toBe(before);
    const graceMs = Date.parse(res.body.previous_secret_expires_at) - Date.now();
    expect(graceMs).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(graceMs).toBeLessThanOrEqual(24 * 3_600_000);
    const shown = await t.http.get('/api/user/webhooks/signing-secret').set(user.auth);
    expect(shown.body).toEqual({
      secret: after,
      created_at: res.body.created_at,
      previous_secret_expires_at: res.body.previous_secret_expires_at,
    });

    const { deliveryId, webhookId } = await deliveries().enqueue(postCall(user));
    await settled(user, deliveryId);
    const [hook] = receiver.forId(webhookId);
    const [first, second, ...rest] = hook.signature.split(' ');
    expect(rest).toEqual([]);
    expect(verifyWithReference(after, { ...hook, signature: first })).toEqual(postCall(user).payload);
    expect(verifyWithReference(before, { ...hook, signature: second })).toEqual(postCall(user).payload);
    expect(() => verifyWithReference(before, { ...hook, signature: first })).toThrow();
    expect(verifyWithReference(before, hook)).toEqual(postCall(user).payload);
  });
});

describe('POST /api/user/webhooks/test', () => {
  it('sends one signed ping and records it as a delivery of the account', async () => {
    const user = await t.createUser();
    const res = await t.http
      .post('/api/user/webhooks/test')
      .set(user.auth)
      .send({ url: receiver.url('/ping') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        delivery_id: expect.stringMatching(DLV),
        ok: true,
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
      },
    });

    const detail = await deliveryOf(user, res.body.data.delivery_id);
    const [hook, ...more] = receiver.forId(detail.webhook_id);
    expect(more).toEqual([]);
    expect(hook.eventType).toBe('ping');
    const payload = verifyWithReference(await secretOf(user), hook) as Record<string, string>;
    expect(payload).toEqual({
      event: 'ping',
      message: 'This is a test delivery from voiceplane.',
      timestamp: expect.stringMatching(ISO),
    });
    expect(Object.keys(payload)).toEqual(['event', 'message', 'timestamp']);
    expect(detail).toMatchObject({
      event_type: 'ping',
      webhook_id: expect.stringMatching(MSG),
      target_url: receiver.url('/ping'),
      status: 'succeeded',
      attempts_count: 1,
      source: { type: 'account', id: user.id },
      subject: null,
      payload,
    });
    expect(await jobsFor(detail.id)).toBe(0);
  });

  it('reports a failure without retrying it', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 500, body: 'boom' }));
    const res = await t.http
      .post('/api/user/webhooks/test')
      .set(user.auth)
      .send({ url: receiver.url('/ping') });
    expect(res.body).toEqual({
      data: {
        delivery_id: expect.stringMatching(DLV),
        ok: false,
        status_code: 500,
        duration_ms: expect.any(Number),
        error: 'http_error',
      },
    });
    const detail = await deliveryOf(user, res.body.data.delivery_id);
    expect(detail).toMatchObject({
      status: 'failed',
      attempts_count: 1,
      next_attempt_at: null,
      last_error: 'http_error',
    });
    expect(await jobsFor(detail.id)).toBe(0);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.timesReceived(detail.webhook_id)).toBe(1);
  });

  it('reports an answer cut at the size cap as not ok, though the receiver got the ping', async () => {
    const user = await t.createUser();
    receiver.respondWith(() => ({ status: 200, body: 'x'.repeat(5 * 1024 * 1024) }));
    const res = await t.http
      .post('/api/user/webhooks/test')
      .set(user.auth)
      .send({ url: receiver.url('/ping') });
    expect(res.body).toEqual({
      data: {
        delivery_id: expect.stringMatching(DLV),
        ok: false,
        status_code: 200,
        duration_ms: expect.any(Number),
        error: 'response_too_large',
      },
    });
  });

  it('reports a target that cannot be reached', async () => {
    const user = await t.createUser();
    const closed = await WebhookReceiver.start();
    const url = closed.url('/ping');
    await closed.close();
    const res = await t.http.post('/api/user/webhooks/test').set(user.auth).send({ url });
    expect(res.body).toEqual({
      data: {
        delivery_id: expect.stringMatching(DLV),
        ok: false,
        status_code: null,
        duration_ms: expect.any(Number),
        error: 'connection_failed',
      },
    });
  });

  it('can be replayed like any other delivery', async () => {
    const user = await t.createUser();
    receiver.respondWith((_hook, seenBefore) => (seenBefore === 0 ? { status: 500, body: '' } : { status: 204 }));
    const res = await t.http
      .post('/api/user/webhooks/test')
      .set(user.auth)
      .send({ url: receiver.url('/ping') });
    const id = res.body.data.delivery_id as string;
    expect((await t.http.post(`/api/user/webhooks/deliveries/${id}/replay`).set(user.auth)).status).toBe(200);
    const done = await settled(user, id);
    expect(done).toMatchObject({ attempts_count: 2, last_status_code: 204 });
    expect(receiver.timesReceived(done.webhook_id)).toBe(2);
  });

  it.each([
    [{}, { url: ['The url field is required.'] }],
    [{ url: '' }, { url: ['The url field is required.'] }],
    [{ url: 42 }, { url: ['The url must be a string.'] }],
    [{ url: 'not a url' }, { url: ['The url must be a valid URL.'] }],
    [{ url: 'ftp://hooks.example.com/x' }, { url: ['The url must be a valid URL.'] }],
    [{ url: 'https://user:pass@hooks.example.com/x' }, { url: ['The url must be a public http or https URL.'] }],
    [
      { url: `https://hooks.example.com/${'x'.repeat(2_048)}` },
      { url: ['The url must be a public http or https URL.'] },
    ],
  ])('answers 422 for body #%#', async (body, errors) => {
    const user = await t.createUser();
    const res = await t.http.post('/api/user/webhooks/test').set(user.auth).send(body);
    expect([res.status, res.body]).toEqual([422, { message: 'The given data was invalid.', errors }]);
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://localhost:8080/hook',
    'http://[::ffff:10.0.0.1]/x',
    'http://169.254.169.254/latest',
  ])('refuses the private address %s when private targets are not allowed', async (url) => {
    const user = await guarded.createUser();
    const res = await guarded.http.post('/api/user/webhooks/test').set(user.auth).send({ url });
    expect([res.status, res.body]).toEqual([
      422,
      { message: 'The given data was invalid.', errors: { url: ['The url must be a public http or https URL.'] } },
    ]);
  });

  it('allows 10 tests per minute per account', async () => {
    const user = await t.createUser();
    await roomInTheMinute(15_000);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (
          await t.http
            .post('/api/user/webhooks/test')
            .set(user.auth)
            .send({ url: receiver.url('/ping') })
        ).status,
      );
    expect(statuses).toEqual(Array(10).fill(200));
    const refused = await t.http
      .post('/api/user/webhooks/test')
      .set(user.auth)
      .send({ url: receiver.url('/ping') });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Too Many Attempts.', retry_after: expect.any(Number) });
    expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
    const otherUser = await t.createUser();
    expect(
      (
        await t.http
          .post('/api/user/webhooks/test')
          .set(otherUser.auth)
          .send({ url: receiver.url('/ping') })
      ).status,
    ).toBe(200);
  });
});

let guarded: TestApi;
beforeAll(async () => {
  guarded = await createTestApi({ config: { allowPrivateTargets: false }, startBackground: false });
});
afterAll(async () => {
  await guarded.close();
});

/** Milliseconds between a pending delivery's last attempt and its next one. */
function waitAfter(detail: { last_attempt_at: string; next_attempt_at: string }): number {
  return Date.parse(detail.next_attempt_at) - Date.parse(detail.last_attempt_at);
}

/** The list shape of a detail body (what replay answers with). */
function presentedOf(detail: Record<string, unknown>): Record<string, unknown> {
  const { payload: _payload, attempts: _attempts, ...listed } = detail;
  return listed;
}

async function jobsFor(deliveryId: string): Promise<number> {
  const [row] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM scheduled_jobs WHERE key = $1`, [
    `webhook-delivery:${deliveryId}`,
  ]);
  return row.n;
}

async function recorded(eventId: string): Promise<number> {
  const [row] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1`, [
    eventId,
  ]);
  return row.n;
}
