import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { eventually, verifyWithReference, WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import {
  balanceOf,
  createAssistant,
  CUSTOMER,
  getCall,
  inboundAssistant,
  ISO,
  makeCall,
  purchaseNumber,
  SANDBOX_LINE,
} from '@voiceplane/stand-ins/calls/fixtures';

/**
 * End to end: make_call → sandbox answer → sandbox finish → the `post_call` webhook at a local receiver,
 * signed and verified with the Standard Webhooks reference, and the call charged to the ledger
 *.
 */

let t: TestApi;
let receiver: WebhookReceiver;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApi();
  receiver = await WebhookReceiver.start();
  owner = await t.createUser({ balance: 10 });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

const answer = (user: TestUser, id: number) => t.http.post(`/api/sandbox/calls/${id}/answer`).set(user.auth);
const finish = (user: TestUser, id: number, body: Record<string, unknown>) =>
  t.http.post(`/api/sandbox/calls/${id}/finish`).set(user.auth).send(body);

async function postCallDeliveries(user: TestUser, callId: number) {
  const res = await t.http.get('/api/user/webhooks/deliveries?event_type=post_call&per_page=100').set(user.auth);
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return (
    res.body.data as Array<{ subject: { id: number }; webhook_id: string; status: string; attempts_count: number }>
  ).filter((d) => d.subject.id === callId);
}

async function delivered(user: TestUser, callId: number) {
  const [delivery, ...more] = await postCallDeliveries(user, callId);
  expect(more).toEqual([]);
  await eventually(() => receiver.forId(delivery.webhook_id).length > 0, `post_call of call ${callId}`);
  const [hook, ...again] = receiver.forId(delivery.webhook_id);
  expect(again).toEqual([]);
  const secret = (await t.http.get('/api/user/webhooks/signing-secret').set(user.auth)).body.secret;
  return { delivery, hook, payload: verifyWithReference(secret, hook) as Record<string, unknown> };
}

describe('the post-call webhook', () => {
  it('arrives signed with the documented payload after make_call → answer → finish, and the call is charged', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/calls'),
      is_webhook_active: true,
      record: true,
      post_call_schema: [{ name: 'appointment_date', type: 'string', description: 'Agreed date' }],
    });
    const id = await makeCall(t, owner, assistant, CUSTOMER, { customer_name: 'Ann' });
    const before = await balanceOf(t, owner);

    const answered = await answer(owner, id);
    expect([answered.status, answered.body]).toEqual([200, { ok: true, call: { id, status: 'in-progress' } }]);
    const finished = await finish(owner, id, {
      status: 'completed',
      duration: 87,
      transcript: [
        { role: 'assistant', content: 'Hello Ann, this is Acme.', at: '2026-03-01T10:00:03Z' },
        { role: 'customer', content: 'Hi!', at: '2026-03-01T10:00:05Z' },
      ],
      extracted_variables: { status: true, summary: 'Booked a demo for Thursday.', appointment_date: '2026-03-05' },
    });
    expect([finished.status, finished.body]).toEqual([200, { ok: true, call: { id, status: 'completed' } }]);

    const call = await getCall(t, owner, id);
    const { delivery, hook, payload } = await delivered(owner, id);
    // The sandbox's recording is served by the recording route, as a real call's.
    expect(call.recording_url).toMatch(new RegExp(`^http://[^/]+/api/user/calls/${id}/recording$`));
    const expected = {
      id,
      assistant_id: assistant,
      customer_phone: CUSTOMER,
      assistant_phone: SANDBOX_LINE,
      duration: 87,
      status: 'completed',
      extracted_variables: { status: true, summary: 'Booked a demo for Thursday.', appointment_date: '2026-03-05' },
      input_variables: { customer_name: 'Ann' },
      transcript: 'AI: Hello Ann, this is Acme.\nCustomer: Hi!',
      recording_url: call.recording_url,
      created_at: call.created_at,
      finished_at: call.finished_at,
      lead: null,
      campaign: null,
    };
    expect(payload).toEqual(expected);
    expect(hook.body).toBe(JSON.stringify(expected));
    expect(hook.path).toBe('/calls');
    expect(hook.eventType).toBe('post_call');
    expect(hook.headers['content-type']).toBe('application/json');
    expect(delivery).toEqual(
      expect.objectContaining({
        event_type: 'post_call',
        target_url: receiver.url('/calls'),
        source: { type: 'assistant', id: assistant },
      }),
    );

    expect(call).toEqual(
      expect.objectContaining({
        status: 'completed',
        duration: 87,
        cost: 0.2,
        recording_url: expected.recording_url,
        answered_at: expect.stringMatching(ISO),
      }),
    );
    expect(await balanceOf(t, owner)).toBeCloseTo(before - 0.2, 4);
    const ledger = (await t.http.get('/api/user/billing/ledger?type=charge').set(owner.auth)).body.data;
    expect(ledger[0]).toEqual({
      id: expect.any(Number),
      type: 'charge',
      amount: -0.2,
      balance_after: expect.any(Number),
      description: `Call ${id} (2 min)`,
      reference: { type: 'call', id },
      created_at: expect.stringMatching(ISO),
    });
  });

  it('is not created for other ends while send_webhook_only_on_completed is true (the default)', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/only-completed'),
      is_webhook_active: true,
    });
    const busy = await makeCall(t, owner, assistant, '+15005550001');
    const failed = await makeCall(t, owner, assistant);
    await answer(owner, failed);
    await finish(owner, failed, { status: 'failed' });
    expect(await postCallDeliveries(owner, busy)).toEqual([]);
    expect(await postCallDeliveries(owner, failed)).toEqual([]);
  });

  it('is sent for every end when send_webhook_only_on_completed is false; recording_url null when nothing was recorded', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/all'),
      is_webhook_active: true,
      send_webhook_only_on_completed: false,
    });
    const busy = await makeCall(t, owner, assistant, '+15005550001');
    const { payload } = await delivered(owner, busy);
    expect(payload).toEqual(
      expect.objectContaining({
        id: busy,
        status: 'busy',
        duration: 0,
        recording_url: null,
        transcript: '',
        extracted_variables: { status: false, summary: '' },
      }),
    );
  });

  it('leaves recording_url out when include_recording_in_webhook is false', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/no-recording'),
      is_webhook_active: true,
      record: true,
      include_recording_in_webhook: false,
    });
    const id = await makeCall(t, owner, assistant);
    await finish(owner, id, { status: 'completed', duration: 5 });
    const { payload } = await delivered(owner, id);
    expect(Object.keys(payload)).not.toContain('recording_url');
    expect((await getCall(t, owner, id)).recording_url).toMatch(new RegExp(`/api/user/calls/${id}/recording$`));
  });

  it('keeps no recording when the assistant does not record, and sends {} as extraction when evaluation is off', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/plain'),
      is_webhook_active: true,
      post_call_evaluation: false,
    });
    const id = await makeCall(t, owner, assistant);
    await finish(owner, id, {
      status: 'completed',
      duration: 5,
      recording_url: 'https://media.example/x.mp3',
      extracted_variables: { status: true },
    });
    const { payload } = await delivered(owner, id);
    expect(payload).toEqual(expect.objectContaining({ recording_url: null, extracted_variables: {} }));
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({ recording_url: null, extracted_variables: {} }),
    );
  });

  it('is not created while the webhook is inactive, nor for calls ending after disable-webhook; enable-webhook applies to calls ending afterwards', async () => {
    const never = await createAssistant(t, owner, { webhook_url: receiver.url('/inactive') });
    const quiet = await makeCall(t, owner, never);
    await finish(owner, quiet, { status: 'completed', duration: 5 });
    expect(await postCallDeliveries(owner, quiet)).toEqual([]);

    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/toggled'),
      is_webhook_active: true,
    });
    const running = await makeCall(t, owner, assistant);
    await answer(owner, running);
    expect(
      (await t.http.post('/api/user/assistants/disable-webhook').set(owner.auth).send({ assistant_id: assistant }))
        .status,
    ).toBe(200);
    await finish(owner, running, { status: 'completed', duration: 5 });
    expect(await postCallDeliveries(owner, running)).toEqual([]);
    expect((await getCall(t, owner, running)).extracted_variables).toEqual({ status: true, summary: 'Sandbox call.' });

    const later = await makeCall(t, owner, assistant);
    expect(
      (
        await t.http
          .post('/api/user/assistants/enable-webhook')
          .set(owner.auth)
          .send({ assistant_id: assistant, webhook_url: receiver.url('/enabled') })
      ).status,
    ).toBe(200);
    await finish(owner, later, { status: 'completed', duration: 5 });
    const { hook } = await delivered(owner, later);
    expect(hook.path).toBe('/enabled');
  });

  it("is canceled while still pending when the assistant's webhook is disabled", async () => {
    receiver.respondWith((hook) => (hook.path === '/failing' ? { status: 500 } : { status: 200, body: 'ok' }));
    try {
      const assistant = await createAssistant(t, owner, {
        webhook_url: receiver.url('/failing'),
        is_webhook_active: true,
      });
      const id = await makeCall(t, owner, assistant);
      await finish(owner, id, { status: 'completed', duration: 5 });
      const [pending] = await postCallDeliveries(owner, id);
      await eventually(
        async () => (await postCallDeliveries(owner, id))[0].attempts_count === 1,
        'the first failed attempt',
      );
      expect((await postCallDeliveries(owner, id))[0].status).toBe('pending');
      await t.http.post('/api/user/assistants/disable-webhook').set(owner.auth).send({ assistant_id: assistant });
      await eventually(
        async () => (await postCallDeliveries(owner, id))[0].status === 'canceled',
        'the delivery to be canceled',
      );
      expect(receiver.forId(pending.webhook_id)).toHaveLength(1);
    } finally {
      receiver.respondWith(() => ({ status: 200, body: 'ok' }));
    }
  });

  it('is not created for a call whose assistant was deleted while it ran; the call ends and stays readable', async () => {
    const assistant = await createAssistant(t, owner, {
      webhook_url: receiver.url('/deleted'),
      is_webhook_active: true,
    });
    const id = await makeCall(t, owner, assistant);
    await answer(owner, id);
    expect((await t.http.delete(`/api/user/assistant/${assistant}`).set(owner.auth)).status).toBe(200);
    expect((await finish(owner, id, { status: 'completed', duration: 30 })).body).toEqual({
      ok: true,
      call: { id, status: 'completed' },
    });
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({ assistant_id: assistant, status: 'completed', cost: 0.1 }),
    );
    expect(await postCallDeliveries(owner, id)).toEqual([]);
  });

  it("appears only in the owner's delivery log", async () => {
    const stranger = await t.createUser();
    const assistant = await createAssistant(t, owner, { webhook_url: receiver.url('/mine'), is_webhook_active: true });
    const id = await makeCall(t, owner, assistant);
    await finish(owner, id, { status: 'completed', duration: 5 });
    expect(await postCallDeliveries(owner, id)).toHaveLength(1);
    expect((await t.http.get('/api/user/webhooks/deliveries').set(stranger.auth)).body.total).toBe(0);
  });
});

describe('the call-end charge', () => {
  it('may take the balance below zero, and only at the end of a call', async () => {
    const user = await t.createUser({ balance: 0.1 });
    const assistant = await createAssistant(t, user);
    const id = await makeCall(t, user, assistant);
    await finish(user, id, { status: 'completed', duration: 600 });
    expect(await getCall(t, user, id)).toEqual(expect.objectContaining({ duration: 600, cost: 1 }));
    expect(await balanceOf(t, user)).toBe(-0.9);
    const [entry] = (await t.http.get('/api/user/billing/ledger?type=charge').set(user.auth)).body.data;
    expect(entry).toEqual(
      expect.objectContaining({
        amount: -1,
        balance_after: -0.9,
        description: `Call ${id} (10 min)`,
        reference: { type: 'call', id },
      }),
    );
    const refused = await t.http
      .post('/api/user/make_call')
      .set(user.auth)
      .send({ assistant_id: assistant, phone_number: CUSTOMER });
    expect([refused.status, refused.body]).toEqual([422, { message: 'Insufficient balance.' }]);
  });
});

describe('configured call-minute prices (PRICE_PHONE_CALL_MINUTE)', () => {
  it('check make_call against one minute at the configured price and charge every started minute at it', async () => {
    const priced = await createTestApi({ env: { PRICE_PHONE_CALL_MINUTE: '0.25' } });
    try {
      const poor = await priced.createUser({ balance: 0.2 });
      const refused = await priced.http
        .post('/api/user/make_call')
        .set(poor.auth)
        .send({ assistant_id: await createAssistant(priced, poor), phone_number: CUSTOMER });
      expect([refused.status, refused.body]).toEqual([422, { message: 'Insufficient balance.' }]);

      const user = await priced.createUser({ balance: 0.3 });
      const id = await makeCall(priced, user, await createAssistant(priced, user));
      await priced.http
        .post(`/api/sandbox/calls/${id}/finish`)
        .set(user.auth)
        .send({ status: 'completed', duration: 61 });
      expect(await getCall(priced, user, id)).toEqual(expect.objectContaining({ duration: 61, cost: 0.5 }));
      expect(await balanceOf(priced, user)).toBe(-0.2);
    } finally {
      await priced.close();
    }
  });
});

/*
 * The inbound and conversation-ended webhook switches, with the bodies the MCP server sends
 * (`{assistant_id, webhook_url}` to enable, `{assistant_id}` to disable): inbound calls' post-call
 * bodies reach the inbound URL, outbound calls' never do.
 */
const INVALID = 'The given data was invalid.';
let stranger: TestUser;
beforeAll(async () => {
  stranger = await t.createUser();
});
const toggle = (path: string, body: unknown, user = owner) =>
  t.http
    .post(`/api/user/assistants/${path}`)
    .set(user.auth)
    .send(body as object);
const assistantOf = async (id: number) => (await t.http.get(`/api/user/assistant/${id}`).set(owner.auth)).body.data;
const runtimeEvent = (id: number, body: Record<string, unknown>) =>
  t.http.post(`/api/runtime/calls/${id}/events`).set(t.runtimeAuth).send(body).expect(200);

async function endCall(id: number): Promise<void> {
  await runtimeEvent(id, { event_id: `a-${id}`, type: 'answered' });
  await runtimeEvent(id, { event_id: `e-${id}`, type: 'ended', data: { status: 'completed', duration: 12 } });
}

describe('enable-inbound-webhook and disable-inbound-webhook', () => {
  it("send each inbound call's post-call body to the URL, never an outbound one, until disabled", async () => {
    const number = await purchaseNumber(t, owner);
    const inbound = await inboundAssistant(t, owner, number.id);
    const url = receiver.url('/inbound');
    const enabled = await toggle('enable-inbound-webhook', { assistant_id: inbound, webhook_url: url });
    expect([enabled.status, enabled.body]).toEqual([200, { message: 'Webhook enabled successfully', data: [] }]);
    // The post-call webhook itself stays off.
    expect(await assistantOf(inbound)).toEqual(
      expect.objectContaining({ is_webhook_active: false, webhook_url: null }),
    );

    const call = (
      await t.http
        .post('/api/runtime/calls/inbound')
        .set(t.runtimeAuth)
        .send({ to: number.phoneNumber, from: CUSTOMER })
    ).body.call_id as number;
    await endCall(call);
    await eventually(
      () => receiver.received.some((r) => r.path === '/inbound' && JSON.parse(r.body).id === call),
      `inbound post_call of call ${call}`,
    );
    const body = JSON.parse(
      receiver.received.find((r) => r.path === '/inbound' && JSON.parse(r.body).id === call)!.body,
    );
    expect(body).toEqual(
      expect.objectContaining({
        id: call,
        assistant_id: inbound,
        customer_phone: CUSTOMER,
        status: 'completed',
        lead: null,
        campaign: null,
      }),
    );

    // An outbound assistant's calls never reach an inbound URL.
    const outbound = await createAssistant(t, owner);
    await toggle('enable-inbound-webhook', { assistant_id: outbound, webhook_url: receiver.url('/never') }).expect(200);
    await endCall(await makeCall(t, owner, outbound));

    const disabled = await toggle('disable-inbound-webhook', { assistant_id: inbound });
    expect([disabled.status, disabled.body]).toEqual([
      200,
      { message: 'Inbound webhook disabled successfully', data: [] },
    ]);
    expect((await toggle('disable-inbound-webhook', { assistant_id: inbound })).status).toBe(200);
    const later = (
      await t.http
        .post('/api/runtime/calls/inbound')
        .set(t.runtimeAuth)
        .send({ to: number.phoneNumber, from: CUSTOMER })
    ).body.call_id as number;
    await endCall(later);
    const deliveries = (
      await t.http.get('/api/user/webhooks/deliveries?event_type=post_call&per_page=100').set(owner.auth)
    ).body.data as Array<{ subject: { id: number } }>;
    expect(deliveries.filter((d) => d.subject.id === later)).toEqual([]);
    expect(receiver.received.filter((r) => r.path === '/never')).toEqual([]);
  });
});

describe('enable-conversation-ended-webhook and disable-conversation-ended-webhook', () => {
  it('set and clear conversation_ended_webhook_url, idempotently', async () => {
    const assistant = await createAssistant(t, owner);
    const url = 'https://hooks.example.com/ended';
    const enabled = await toggle('enable-conversation-ended-webhook', { assistant_id: assistant, webhook_url: url });
    expect([enabled.status, enabled.body]).toEqual([
      200,
      { message: 'Conversation ended webhook enabled successfully', data: [] },
    ]);
    expect((await assistantOf(assistant)).conversation_ended_webhook_url).toBe(url);
    for (let i = 0; i < 2; i++) {
      const disabled = await toggle('disable-conversation-ended-webhook', { assistant_id: String(assistant) });
      expect([disabled.status, disabled.body]).toEqual([
        200,
        { message: 'Conversation ended webhook disabled successfully', data: [] },
      ]);
    }
    expect((await assistantOf(assistant)).conversation_ended_webhook_url).toBeNull();
  });
});

describe.each(['inbound', 'conversation-ended'])('the %s switches refuse', (kind) => {
  it("another account's or an unknown assistant with 404, and bad bodies with 422, changing nothing", async () => {
    const assistant = await createAssistant(t, owner);
    for (const [path, body] of [
      [`enable-${kind}-webhook`, { assistant_id: assistant, webhook_url: 'https://h.example.com/x' }],
      [`disable-${kind}-webhook`, { assistant_id: assistant }],
    ] as const) {
      const foreign = await toggle(path, body, stranger);
      expect([foreign.status, foreign.body]).toEqual([404, { message: 'Assistant not found' }]);
      const unknown = await toggle(path, { ...body, assistant_id: 99_999_999 });
      expect([unknown.status, unknown.body]).toEqual([404, { message: 'Assistant not found' }]);
    }
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      [
        `enable-${kind}-webhook`,
        {},
        { assistant_id: ['The assistant id field is required.'], webhook_url: ['The webhook url field is required.'] },
      ],
      [
        `enable-${kind}-webhook`,
        { assistant_id: assistant, webhook_url: 'not a url' },
        { webhook_url: ['The webhook url must be a valid URL.'] },
      ],
      [`disable-${kind}-webhook`, { assistant_id: 'x' }, { assistant_id: ['The assistant id must be an integer.'] }],
      [`disable-${kind}-webhook`, null, { assistant_id: ['The assistant id field is required.'] }],
    ];
    for (const [path, body, errors] of cases) {
      const res = await toggle(path, body);
      expect([path, res.status, res.body]).toEqual([path, 422, { message: INVALID, errors }]);
    }
    expect(await assistantOf(assistant)).toEqual(expect.objectContaining({ conversation_ended_webhook_url: null }));
  });
});
