import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import {
  blockAssistant,
  createAssistant,
  createSipTrunk,
  CUSTOMER,
  getCall,
  inboundAssistant,
  ISO,
  makeCall,
  purchaseNumber,
  SANDBOX_LINE,
} from '@voiceplane/stand-ins/calls/fixtures';

/** `POST /api/user/make_call` through the composed app with the sandbox runtime. */

const INVALID = 'The given data was invalid.';
const MESSAGES = {
  invalidPhone: { message: 'Invalid phone number format. Use E.164 format (e.g., +14155551234).' },
  notFound: { message: 'Assistant not found' },
  outboundOnly: { message: 'Only outbound assistants can place calls.' },
  blocked: { message: 'This assistant is unavailable for compliance review.' },
  balance: { message: 'Insufficient balance.' },
  dispatch: { message: 'The call could not be placed. Please try again.' },
};

let t: TestApi;
let owner: TestUser;
let stranger: TestUser;
let assistant: number;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 25 });
  stranger = await t.createUser({ balance: 25 });
  assistant = await createAssistant(t, owner, { variables: { company: 'Acme', customer_name: 'Default' } });
});
afterAll(async () => t.close());

const post = (user: TestUser, body: unknown) =>
  t.http
    .post('/api/user/make_call')
    .set(user.auth)
    .send(body as object);

describe('success', () => {
  it('answers 200 initiated and stores an outbound phone call that rings at once on the sandbox line', async () => {
    const res = await post(owner, {
      assistant_id: String(assistant),
      phone_number: ` ${CUSTOMER} `,
      variables: { customer_name: 'Ann', seats: 3, vip: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Call initiated successfully',
      call_id: expect.any(Number),
      status: 'initiated',
    });
    expect(await getCall(t, owner, res.body.call_id)).toEqual({
      id: res.body.call_id,
      assistant_id: assistant,
      direction: 'outbound',
      channel: 'phone',
      status: 'ringing',
      customer_phone: CUSTOMER,
      assistant_phone: SANDBOX_LINE,
      phone_number_id: null,
      sender_id: null,
      conversation_id: null,
      automation_run_id: null,
      campaign_id: null,
      lead_id: null,
      variables: { customer_name: 'Ann', seats: '3', vip: 'true' },
      extracted_variables: {},
      duration: 0,
      cost: 0,
      recording_url: null,
      ended_reason: null,
      transcript: '',
      transcript_items: [],
      tool_calls: [],
      created_at: expect.stringMatching(ISO),
      answered_at: null,
      finished_at: null,
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('starts the call with the assistant merged with the call variables (runtime config)', async () => {
    const id = await makeCall(t, owner, assistant, CUSTOMER, { customer_name: 'Ann' });
    const config = await t.http.get(`/api/runtime/calls/${id}/config`).set(t.runtimeAuth);
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      call_id: id,
      config: {
        direction: 'outbound',
        channel: 'phone',
        customer_phone: CUSTOMER,
        assistant_phone: SANDBOX_LINE,
        sip: null,
        assistant: expect.objectContaining({
          id: assistant,
          language: 'en',
          name: 'Caller',
          system_prompt: 'Be brief.',
          ringing_time: 30,
        }),
        variables: { company: 'Acme', customer_name: 'Ann' },
        tools: [],
        builtin_tools: [],
        // The catalogue entries resolved for the voice agent (the voices route never shows provider ids).
        speech: {
          voice: { id: 1, name: 'Ava', provider: 'elevenlabs', provider_voice_id: '21m00Tcm4TlvDq8ikWAM' },
          synthesizer: null,
          transcriber: null,
          llm_model: { name: 'gpt-4o-mini', provider: 'openai' },
          multimodal_model: null,
          chat_llm_fallback: null,
        },
      },
    });
    expect(config.body.config.assistant).not.toHaveProperty('webhook_url');
  });

  it("places calls from the assistant's purchased number or through its SIP trunk's outbound trunk", async () => {
    const number = await purchaseNumber(t, owner);
    const viaNumber = await createAssistant(t, owner, { phone_number_id: number.id });
    const first = await makeCall(t, owner, viaNumber);
    expect(await getCall(t, owner, first)).toEqual(
      expect.objectContaining({ assistant_phone: number.phoneNumber, phone_number_id: number.id }),
    );
    expect((await t.http.get(`/api/runtime/calls/${first}/config`).set(t.runtimeAuth)).body.config.sip).toBeNull();

    const trunk = await createSipTrunk(t, owner, { sip_calling_format: 'national', outbound_proxy: true });
    const viaTrunk = await createAssistant(t, owner, { phone_number_id: trunk.id });
    const second = await makeCall(t, owner, viaTrunk);
    expect(await getCall(t, owner, second)).toEqual(
      expect.objectContaining({ assistant_phone: trunk.phone_number, phone_number_id: trunk.id }),
    );
    expect((await t.http.get(`/api/runtime/calls/${second}/config`).set(t.runtimeAuth)).body.config.sip).toEqual({
      outbound_trunk_id: trunk.outbound_trunk_id,
      calling_format: 'national',
      outbound_proxy: true,
    });
  });

  it('replays an Idempotency-Key without placing a second call', async () => {
    const before = (await t.http.get('/api/user/calls').set(owner.auth)).body.total;
    const key = `mc-${Date.now()}`;
    const first = await post(owner, { assistant_id: assistant, phone_number: CUSTOMER }).set('Idempotency-Key', key);
    const again = await post(owner, { assistant_id: assistant, phone_number: CUSTOMER }).set('Idempotency-Key', key);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await t.http.get('/api/user/calls').set(owner.auth)).body.total).toBe(before + 1);
  });
});

describe('sandbox outcomes by number', () => {
  it.each([
    ['+15005550001', 'busy', 'customer_busy'],
    ['+15005550002', 'no-answer', 'no_answer'],
    ['+15005550003', 'failed', 'dial_failed'],
  ])('%s ends %s right after ringing, unbilled', async (phone, status, reason) => {
    const id = await makeCall(t, owner, assistant, phone);
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({
        status,
        ended_reason: reason,
        duration: 0,
        cost: 0,
        answered_at: null,
        finished_at: expect.stringMatching(ISO),
        recording_url: null,
      }),
    );
    const ledger = (await t.http.get('/api/user/billing/ledger?type=charge').set(owner.auth)).body.data as Array<{
      reference: unknown;
    }>;
    expect(ledger.filter((e) => JSON.stringify(e.reference) === JSON.stringify({ type: 'call', id }))).toEqual([]);
  });
});

describe('errors, in the check order', () => {
  it('422 validation lists every field', async () => {
    expect((await post(owner, {})).body).toEqual({
      message: INVALID,
      errors: {
        assistant_id: ['The assistant id field is required.'],
        phone_number: ['The phone number field is required.'],
      },
    });
    const res = await post(owner, { assistant_id: 'abc', phone_number: 14155551234, variables: 'x' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        assistant_id: ['The assistant id must be an integer.'],
        phone_number: ['The phone number must be a string.'],
        variables: ['The variables must be an object.'],
      },
    });
    const bodyNotObject = await post(owner, [1, 2]);
    expect(bodyNotObject.status).toBe(422);
    expect(bodyNotObject.body).toEqual({
      message: INVALID,
      errors: { body: ['The request body must be a JSON object.'] },
    });
  });

  it('422 for variables beyond the limits (50 keys, values ≤ 1000, scalars only)', async () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x']));
    expect((await post(owner, { assistant_id: assistant, phone_number: CUSTOMER, variables: many })).body).toEqual({
      message: INVALID,
      errors: { variables: ['The variables may not have more than 50 items.'] },
    });
    const res = await post(owner, {
      assistant_id: assistant,
      phone_number: 'nope',
      variables: { long: 'x'.repeat(1001), nested: { a: 1 }, 'bad key': 'x' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: INVALID,
      errors: {
        'variables.long': ['The variables.long may not be greater than 1000 characters.'],
        'variables.nested': ['The variables.nested must be a string.'],
        'variables.bad key': ['The variables.bad key format is invalid.'],
      },
    });
  });

  it('400 for a phone number that is not E.164, before the assistant is looked up', async () => {
    for (const phone of ['4155551234', '+0123456789', '+1415', 'abc', '+1415555123456789']) {
      const res = await post(owner, { assistant_id: 999_999, phone_number: phone });
      expect([phone, res.status, res.body]).toEqual([phone, 400, MESSAGES.invalidPhone]);
    }
  });

  it("404 for a missing assistant and for another account's assistant alike", async () => {
    const missing = await post(owner, { assistant_id: 999_999, phone_number: CUSTOMER });
    const foreign = await post(stranger, { assistant_id: assistant, phone_number: CUSTOMER });
    expect([missing.status, missing.body]).toEqual([404, MESSAGES.notFound]);
    expect([foreign.status, foreign.body]).toEqual([404, MESSAGES.notFound]);
  });

  it('422 for an inbound assistant, before compliance', async () => {
    const number = await purchaseNumber(t, owner);
    const inbound = await inboundAssistant(t, owner, number.id);
    await blockAssistant(t, inbound);
    const res = await post(owner, { assistant_id: inbound, phone_number: CUSTOMER });
    expect([res.status, res.body]).toEqual([422, MESSAGES.outboundOnly]);
  });

  it('403 while the assistant is blocked for compliance review, before the balance', async () => {
    const poor = await t.createUser({ balance: 0 });
    const blocked = await createAssistant(t, poor);
    await blockAssistant(t, blocked);
    const res = await post(poor, { assistant_id: blocked, phone_number: CUSTOMER });
    expect([res.status, res.body]).toEqual([403, MESSAGES.blocked]);
    await blockAssistant(t, blocked, false);
    expect((await post(poor, { assistant_id: blocked, phone_number: CUSTOMER })).status).toBe(422);
  });

  it('422 when the balance is below one minute of a phone call; exactly one minute is enough', async () => {
    const user = await t.createUser({ balance: 0.0999 });
    const id = await createAssistant(t, user);
    const res = await post(user, { assistant_id: id, phone_number: CUSTOMER });
    expect([res.status, res.body]).toEqual([422, MESSAGES.balance]);
    expect((await t.http.get('/api/user/calls').set(user.auth)).body.total).toBe(0);
    await t.http
      .post(`/api/admin/users/${user.id}/balance`)
      .set(t.admin)
      .send({ amount: 0.0001, note: 'to one minute' });
    expect((await post(user, { assistant_id: id, phone_number: CUSTOMER })).status).toBe(200);
  });

  it('502 when the runtime refuses the dispatch; the call is stored as failed and nothing is charged', async () => {
    const user = await t.createUser({ balance: 5 });
    const id = await createAssistant(t, user);
    const armed = await t.http.post('/api/sandbox/faults').set(user.auth).send({ kind: 'call_dispatch' });
    expect([armed.status, armed.body]).toEqual([
      200,
      { ok: true, fault: { kind: 'call_dispatch', target_id: null, remaining: 1 } },
    ]);
    const res = await post(user, { assistant_id: id, phone_number: CUSTOMER });
    expect([res.status, res.body]).toEqual([502, MESSAGES.dispatch]);
    const list = (await t.http.get('/api/user/calls').set(user.auth)).body;
    expect(list.total).toBe(1);
    expect(list.data[0]).toEqual(
      expect.objectContaining({
        status: 'failed',
        ended_reason: 'dispatch_failed',
        duration: 0,
        cost: 0,
        finished_at: expect.stringMatching(ISO),
      }),
    );
    // One fault, one failure: the next call goes through.
    expect((await post(user, { assistant_id: id, phone_number: CUSTOMER })).status).toBe(200);
    expect((await t.http.get(`/api/user/billing/balance`).set(user.auth)).body.total_balance).toBe(5);
  });

  it('shows in the balance what the calls in progress reserve, and releases it when they end', async () => {
    const user = await t.createUser({ balance: 5 });
    const id = await createAssistant(t, user);
    const calls = [
      await post(user, { assistant_id: id, phone_number: CUSTOMER }),
      await post(user, { assistant_id: id, phone_number: CUSTOMER }),
    ];
    const balance = async () => (await t.http.get('/api/user/billing/balance').set(user.auth)).body;
    expect(await balance()).toEqual(expect.objectContaining({ total_balance: 5, reserved: 0.2, currency: 'USD' }));
    await t.http
      .post(`/api/sandbox/calls/${calls[0].body.call_id}/finish`)
      .set(user.auth)
      .send({ status: 'canceled' })
      .expect(200);
    expect((await balance()).reserved).toBe(0.1);
  });

  it("aims a call_dispatch fault at one of the caller's own numbers only", async () => {
    const user = await t.createUser({ balance: 20 });
    const number = await purchaseNumber(t, user);
    const onNumber = await createAssistant(t, user, { phone_number_id: number.id });
    const onPlatform = await createAssistant(t, user);
    expect(
      (
        await t.http
          .post('/api/sandbox/faults')
          .set(stranger.auth)
          .send({ kind: 'call_dispatch', target_id: number.id })
      ).body,
    ).toEqual({ message: 'Not found.' });
    const armed = await t.http
      .post('/api/sandbox/faults')
      .set(user.auth)
      .send({ kind: 'call_dispatch', target_id: number.id, count: 2 });
    expect(armed.body).toEqual({ ok: true, fault: { kind: 'call_dispatch', target_id: number.id, remaining: 2 } });
    expect((await post(user, { assistant_id: onPlatform, phone_number: CUSTOMER })).status).toBe(200);
    expect((await post(user, { assistant_id: onNumber, phone_number: CUSTOMER })).status).toBe(502);
    expect((await post(user, { assistant_id: onNumber, phone_number: CUSTOMER })).status).toBe(502);
    expect((await post(user, { assistant_id: onNumber, phone_number: CUSTOMER })).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await t.http.post('/api/user/make_call').send({ assistant_id: assistant, phone_number: CUSTOMER });
    expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized' }]);
  });
});

describe('per-plan concurrency (plan max_concurrent_calls, additive)', () => {
  it('a one-minute balance starts one call at a time, also under a burst; a call that ends releases its minute', async () => {
    const user = await t.createUser({ balance: 0.1, plan: { max_concurrent_calls: 10 } });
    const caller = await createAssistant(t, user, {});
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => post(user, { assistant_id: caller, phone_number: CUSTOMER })),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    expect(burst.find((r) => r.status === 422)!.body).toEqual(MESSAGES.balance);
    const started = burst.find((r) => r.status === 200)!.body.call_id;
    expect(
      (await t.http.post(`/api/sandbox/calls/${started}/finish`).set(user.auth).send({ status: 'canceled' })).status,
    ).toBe(200);
    expect((await post(user, { assistant_id: caller, phone_number: CUSTOMER })).status).toBe(200);
    expect((await post(user, { assistant_id: caller, phone_number: CUSTOMER })).status).toBe(422);
  });

  it('refuses calls beyond the plan limit with 429 and Retry-After, also under a burst, and frees a slot when a call ends', async () => {
    const limited = await t.createUser({ balance: 25, plan: { max_concurrent_calls: 2 } });
    const caller = await createAssistant(t, limited, {});
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => post(limited, { assistant_id: caller, phone_number: CUSTOMER })),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const refused = burst.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ message: 'Too many calls in progress for your plan.', retry_after: 30 });
    expect(refused.headers['retry-after']).toBe('30');
    const list = await t.http.get('/api/user/calls').set(limited.auth);
    expect(list.body.total).toBe(2);

    const first = burst.find((r) => r.status === 200)!.body.call_id;
    const finished = await t.http
      .post(`/api/sandbox/calls/${first}/finish`)
      .set(limited.auth)
      .send({ status: 'canceled' });
    expect(finished.status).toBe(200);
    expect((await post(limited, { assistant_id: caller, phone_number: CUSTOMER })).status).toBe(200);
    expect((await post(limited, { assistant_id: caller, phone_number: CUSTOMER })).status).toBe(429);
  });
});
