import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import {
  balanceOf,
  blockAssistant,
  createAssistant,
  createSipTrunk,
  CUSTOMER,
  getCall,
  inboundAssistant,
  ISO,
  makeCall,
  purchaseNumber,
} from '@voiceplane/stand-ins/calls/fixtures';

/** The voice-runtime ingress: inbound calls, config and every lifecycle transition over HTTP. */

const INVALID = 'The given data was invalid.';
const NOT_FOUND = { message: 'Call not found' };
const NO_ASSISTANT = { message: 'No active assistant for this number.' };

let t: TestApi;
let owner: TestUser;
let assistant: number;
let eventCounter = 0;

beforeAll(async () => {
  t = await createTestApi({ startBackground: false });
  owner = await t.createUser({ balance: 50 });
  assistant = await createAssistant(t, owner, { record: true });
});
afterAll(async () => t.close());

const event = (callId: number | string, body: Record<string, unknown>) =>
  t.http.post(`/api/runtime/calls/${callId}/events`).set(t.runtimeAuth).send(body);
const newEvent = (callId: number, type: string, extra: Record<string, unknown> = {}) => {
  eventCounter += 1;
  return event(callId, { event_id: `evt-${eventCounter}`, type, ...extra });
};
const transition = (from: string, to: string) => ({ message: `Invalid call transition from ${from} to ${to}.` });

describe('authentication', () => {
  it.each([
    ['post', '/api/runtime/calls/inbound'],
    ['get', '/api/runtime/calls/1/config'],
    ['post', '/api/runtime/calls/1/events'],
  ] as const)('%s %s needs the runtime token (a user token is refused)', async (method, path) => {
    for (const headers of [{}, owner.auth, t.admin]) {
      const res = await t.http[method](path).set(headers).send({});
      expect([res.status, res.body, res.headers['www-authenticate']]).toEqual([
        401,
        { error: 'Unauthorized' },
        'Bearer',
      ]);
    }
  });
});

describe('GET /api/runtime/calls/{id}/config', () => {
  it('404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'x1']) {
      const res = await t.http.get(`/api/runtime/calls/${id}/config`).set(t.runtimeAuth);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
  });

  it('keeps the configuration the call started with when the assistant changes later', async () => {
    const id = await makeCall(t, owner, assistant);
    await t.http.put(`/api/user/assistant/${assistant}`).set(owner.auth).send({ system_prompt: 'Changed.' });
    const res = await t.http.get(`/api/runtime/calls/${id}/config`).set(t.runtimeAuth);
    expect(res.body.config.assistant.system_prompt).toBe('Be brief.');
    await t.http.put(`/api/user/assistant/${assistant}`).set(owner.auth).send({ system_prompt: 'Be brief.' });
  });
});

describe('POST /api/runtime/calls/{id}/events', () => {
  it('walks a call through ringing, answer, transcript and end, with 409 for every refused transition', async () => {
    const id = await makeCall(t, owner, assistant);
    const ok = (status: string) => ({ ok: true, call: { id, status } });

    const ringing = await newEvent(id, 'ringing');
    expect([ringing.status, ringing.body]).toEqual([200, ok('ringing')]);
    expect((await newEvent(id, 'ended', { data: { status: 'completed' } })).body).toEqual(
      transition('ringing', 'completed'),
    );
    expect(
      (await newEvent(id, 'transcript', { data: { items: [{ role: 'assistant', content: 'early' }] } })).body,
    ).toEqual(transition('ringing', 'in-progress'));

    const answered = await newEvent(id, 'answered', { occurred_at: '2026-03-01T11:00:00+01:00' });
    expect([answered.status, answered.body]).toEqual([200, ok('in-progress')]);
    expect((await newEvent(id, 'answered')).body).toEqual(ok('in-progress'));
    const ringAgain = await newEvent(id, 'ringing');
    expect([ringAgain.status, ringAgain.body]).toEqual([409, transition('in-progress', 'ringing')]);
    expect((await newEvent(id, 'ended', { data: { status: 'busy' } })).body).toEqual(transition('in-progress', 'busy'));
    expect((await newEvent(id, 'ended', { data: { status: 'no-answer' } })).body).toEqual(
      transition('in-progress', 'no-answer'),
    );

    expect(
      (
        await newEvent(id, 'transcript', {
          data: { items: [{ role: 'assistant', content: ' Hello Ann, this is Acme. ', at: '2026-03-01T10:00:03Z' }] },
        })
      ).body,
    ).toEqual(ok('in-progress'));
    expect(
      (
        await newEvent(id, 'transcript', {
          occurred_at: '2026-03-01T10:00:05.000Z',
          data: { items: [{ role: 'customer', content: 'Hi!' }] },
        })
      ).body,
    ).toEqual(ok('in-progress'));
    const live = await getCall(t, owner, id);
    expect(live).toEqual(
      expect.objectContaining({
        status: 'in-progress',
        answered_at: '2026-03-01T10:00:00.000Z',
        transcript: 'AI:  Hello Ann, this is Acme. \nCustomer: Hi!',
        transcript_items: [
          { role: 'assistant', content: ' Hello Ann, this is Acme. ', at: '2026-03-01T10:00:03.000Z' },
          { role: 'customer', content: 'Hi!', at: '2026-03-01T10:00:05.000Z' },
        ],
      }),
    );

    const ended = await newEvent(id, 'ended', {
      occurred_at: '2026-03-01T10:01:27Z',
      data: {
        status: 'completed',
        recording_url: 'https://media.example/4812.mp3',
        extracted_variables: { summary: 'Booked.', status: true },
        ended_reason: 'customer_hangup',
      },
    });
    expect([ended.status, ended.body]).toEqual([200, ok('completed')]);
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({
        status: 'completed',
        duration: 87,
        cost: 0.2,
        finished_at: '2026-03-01T10:01:27.000Z',
        recording_url: 'https://media.example/4812.mp3',
        extracted_variables: { summary: 'Booked.', status: true },
        ended_reason: 'customer_hangup',
        transcript: 'AI:  Hello Ann, this is Acme. \nCustomer: Hi!',
      }),
    );

    expect((await newEvent(id, 'ended', { data: { status: 'completed' } })).body).toEqual(ok('completed'));
    for (const [type, data, to] of [
      ['ringing', undefined, 'ringing'],
      ['answered', undefined, 'in-progress'],
      ['transcript', { items: [] }, 'in-progress'],
      ['ended', { status: 'failed' }, 'failed'],
    ] as const) {
      const res = await newEvent(id, type, data ? { data } : {});
      expect([type, res.status, res.body]).toEqual([type, 409, transition('completed', to)]);
    }
    // Only one charge, however many end events arrive.
    const charges = (await t.http.get('/api/user/billing/ledger?type=charge').set(owner.auth)).body.data.filter(
      (e: { reference: { id: number } | null }) => e.reference?.id === id,
    );
    expect(charges).toEqual([
      expect.objectContaining({ amount: -0.2, description: `Call ${id} (2 min)`, reference: { type: 'call', id } }),
    ]);
  });

  it('lets the runtime end unanswered calls as busy, no-answer, failed or canceled, unbilled', async () => {
    for (const status of ['busy', 'no-answer', 'failed', 'canceled']) {
      const id = await makeCall(t, owner, assistant);
      const res = await newEvent(id, 'ended', {
        data: { status, duration: 30, recording_url: 'https://media.example/x.mp3' },
      });
      expect([status, res.status, res.body]).toEqual([status, 200, { ok: true, call: { id, status } }]);
      expect(await getCall(t, owner, id)).toEqual(
        expect.objectContaining({
          status,
          duration: 0,
          cost: 0,
          answered_at: null,
          recording_url: 'https://media.example/x.mp3',
        }),
      );
    }
  });

  it('replaces the transcript with a final one sent on end, and measures the duration from answer to end', async () => {
    const id = await makeCall(t, owner, assistant);
    await newEvent(id, 'answered', { occurred_at: '2026-03-01T10:00:00Z' });
    await newEvent(id, 'transcript', { data: { items: [{ role: 'customer', content: 'partial' }] } });
    await newEvent(id, 'ended', {
      occurred_at: '2026-03-01T10:02:01Z',
      data: { status: 'failed', transcript: [{ role: 'assistant', content: 'Final.', at: '2026-03-01T10:00:01Z' }] },
    });
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({
        status: 'failed',
        duration: 121,
        cost: 0.3,
        transcript: 'AI: Final.',
        transcript_items: [{ role: 'assistant', content: 'Final.', at: '2026-03-01T10:00:01.000Z' }],
        // Evaluation is on and the runtime sent nothing: the control plane's evaluator (here the sandbox model) reads the final transcript.
        extracted_variables: { status: true, summary: 'Sandbox evaluation of 1 message.' },
      }),
    );
  });

  it('answers a repeated event id with the first answer, marked duplicate, and changes nothing', async () => {
    const id = await makeCall(t, owner, assistant);
    const first = await event(id, { event_id: 'answer-1', type: 'answered' });
    expect(first.body).toEqual({ ok: true, call: { id, status: 'in-progress' } });
    await event(id, { event_id: 'end-1', type: 'ended', data: { status: 'completed', duration: 61 } });
    const repeat = await event(id, { event_id: 'answer-1', type: 'answered' });
    expect([repeat.status, repeat.body]).toEqual([
      200,
      { ok: true, call: { id, status: 'in-progress' }, duplicate: true },
    ]);
    const endAgain = await event(id, { event_id: 'end-1', type: 'ended', data: { status: 'failed', duration: 999 } });
    expect(endAgain.body).toEqual({ ok: true, call: { id, status: 'completed' }, duplicate: true });
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({ status: 'completed', duration: 61, cost: 0.2 }),
    );
    // Ids are per call: the same id on another call is a new event.
    const other = await makeCall(t, owner, assistant);
    expect((await event(other, { event_id: 'answer-1', type: 'answered' })).body).toEqual({
      ok: true,
      call: { id: other, status: 'in-progress' },
    });
  });

  it('does not remember refused events: the same id is judged again later', async () => {
    const id = await makeCall(t, owner, assistant);
    const early = {
      event_id: 'tx-early',
      type: 'transcript',
      data: { items: [{ role: 'customer', content: 'Hello?' }] },
    };
    expect((await event(id, early)).status).toBe(409);
    await newEvent(id, 'answered');
    expect((await event(id, early)).body).toEqual({ ok: true, call: { id, status: 'in-progress' } });
    expect((await getCall(t, owner, id)).transcript).toBe('Customer: Hello?');
  });

  it('ends calls placed concurrently with one end each, once', async () => {
    const id = await makeCall(t, owner, assistant);
    await newEvent(id, 'answered');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        event(id, { event_id: 'race-end', type: 'ended', data: { status: 'completed', duration: 30 } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.duplicate === true)).toHaveLength(5);
    const charges = (
      await t.http.get('/api/user/billing/ledger?type=charge&per_page=100').set(owner.auth)
    ).body.data.filter((e: { reference: { id: number } | null }) => e.reference?.id === id);
    expect(charges).toHaveLength(1);
  });

  it('404 for an unknown or malformed call id', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await event(id, { event_id: 'e', type: 'ringing' });
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
  });

  it('422 for invalid bodies, with type-specific data checks', async () => {
    const id = await makeCall(t, owner, assistant);
    const cases: Array<[Record<string, unknown> | unknown[], Record<string, string[]>]> = [
      [{}, { event_id: ['The event id field is required.'], type: ['The type field is required.'] }],
      [
        { event_id: 'x'.repeat(129), type: 'hangup', occurred_at: 'soon', data: 'x' },
        {
          event_id: ['The event id may not be greater than 128 characters.'],
          type: ['The selected type is invalid.'],
          data: ['The data must be an object.'],
          occurred_at: ['The occurred at must be a valid date.'],
        },
      ],
      [
        { event_id: 'a', type: 'answered', occurred_at: 'soon' },
        { occurred_at: ['The occurred at must be a valid date.'] },
      ],
      [{ event_id: 'a', type: 'transcript' }, { 'data.items': ['The data.items field is required.'] }],
      [
        { event_id: 'a', type: 'transcript', data: { items: [{ role: 'agent', at: 'x' }, 'line'] } },
        {
          'data.items.0.role': ['The selected data.items.0.role is invalid.'],
          'data.items.0.content': ['The data.items.0.content field is required.'],
          'data.items.1': ['The data.items.1 must be an object.'],
        },
      ],
      [
        { event_id: 'a', type: 'transcript', data: { items: [{ role: 'agent', content: 'x', at: 'then' }] } },
        { 'data.items.0.role': ['The selected data.items.0.role is invalid.'] },
      ],
      [
        { event_id: 'a', type: 'transcript', data: { items: [{ role: 'customer', content: 'x', at: 'then' }] } },
        { 'data.items.0.at': ['The data.items.0.at must be a valid date.'] },
      ],
      [{ event_id: 'a', type: 'ended', data: {} }, { 'data.status': ['The data.status field is required.'] }],
      [
        {
          event_id: 'a',
          type: 'ended',
          data: { status: 'in-progress', duration: -1, recording_url: 'nope', extracted_variables: [1] },
        },
        {
          'data.status': ['The selected data.status is invalid.'],
          'data.duration': ['The data.duration must be at least 0.'],
          'data.recording_url': ['The data.recording_url must be a valid URL.'],
          'data.extracted_variables': ['The data.extracted_variables must be an object.'],
        },
      ],
      [[1], { body: ['The request body must be a JSON object.'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await event(id, body as Record<string, unknown>);
      expect([body, res.status, res.body]).toEqual([body, 422, { message: INVALID, errors }]);
    }
    expect((await getCall(t, owner, id)).status).toBe('ringing');
  });
});

describe('POST /api/runtime/calls/inbound', () => {
  let number: { id: number; phoneNumber: string };
  let inbound: number;
  const accept = (body: Record<string, unknown>) =>
    t.http.post('/api/runtime/calls/inbound').set(t.runtimeAuth).send(body);

  beforeAll(async () => {
    number = await purchaseNumber(t, owner);
    inbound = await inboundAssistant(t, owner, number.id, { name: 'Front desk', variables: { company: 'Acme' } });
  });

  it("opens a ringing inbound call on the number's active inbound assistant and returns its config", async () => {
    const res = await accept({ to: number.phoneNumber, from: CUSTOMER, provider_call_id: 'lk-call-1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      call_id: expect.any(Number),
      config: {
        direction: 'inbound',
        channel: 'phone',
        customer_phone: CUSTOMER,
        assistant_phone: number.phoneNumber,
        sip: null,
        assistant: expect.objectContaining({ id: inbound, name: 'Front desk', type: 'inbound' }),
        variables: { company: 'Acme' },
        tools: [],
        builtin_tools: [],
        speech: expect.objectContaining({ voice: expect.objectContaining({ provider_voice_id: expect.any(String) }) }),
      },
    });
    expect(await getCall(t, owner, res.body.call_id)).toEqual(
      expect.objectContaining({
        direction: 'inbound',
        channel: 'phone',
        status: 'ringing',
        assistant_id: inbound,
        customer_phone: CUSTOMER,
        assistant_phone: number.phoneNumber,
        phone_number_id: number.id,
        variables: {},
        created_at: expect.stringMatching(ISO),
      }),
    );
    const again = await accept({ to: number.phoneNumber, from: CUSTOMER, provider_call_id: 'lk-call-1' });
    expect([again.status, again.body]).toEqual([201, res.body]);
    const bare = await accept({ to: number.phoneNumber.slice(1), from: 'anonymous' });
    expect(bare.status).toBe(201);
    expect(bare.body.call_id).not.toBe(res.body.call_id);

    // The inbound call runs like any other and is billed to the number's owner.
    const before = await balanceOf(t, owner);
    await newEvent(res.body.call_id, 'answered');
    await newEvent(res.body.call_id, 'ended', { data: { status: 'completed', duration: 200 } });
    expect(await balanceOf(t, owner)).toBeCloseTo(before - 0.4, 4);
  });

  it('matches calls arriving on a SIP trunk by its inbound trunk id', async () => {
    const trunk = await createSipTrunk(t, owner, { sip_calling_format: 'e164' });
    const onTrunk = await inboundAssistant(t, owner, trunk.id);
    const res = await accept({ to: 'ignored', from: CUSTOMER, trunk_id: trunk.inbound_trunk_id });
    expect(res.status).toBe(201);
    expect(res.body.config).toEqual(
      expect.objectContaining({
        assistant_phone: trunk.phone_number,
        sip: { outbound_trunk_id: trunk.outbound_trunk_id, calling_format: 'e164', outbound_proxy: false },
        assistant: expect.objectContaining({ id: onTrunk }),
      }),
    );
    expect((await accept({ to: number.phoneNumber, from: CUSTOMER, trunk_id: 'ST_unknown00000' })).body).toEqual(
      NO_ASSISTANT,
    );
  });

  it('404 when no active, unblocked inbound assistant answers the number', async () => {
    expect((await accept({ to: '+19995550000', from: CUSTOMER })).body).toEqual(NO_ASSISTANT);
    const outboundOnly = await purchaseNumber(t, owner);
    await createAssistant(t, owner, { phone_number_id: outboundOnly.id });
    const res = await accept({ to: outboundOnly.phoneNumber, from: CUSTOMER });
    expect([res.status, res.body]).toEqual([404, NO_ASSISTANT]);

    await t.http.post(`/api/user/assistant/${inbound}/deactivate`).set(owner.auth);
    expect((await accept({ to: number.phoneNumber, from: CUSTOMER })).body).toEqual(NO_ASSISTANT);
    await t.http.post(`/api/user/assistant/${inbound}/activate`).set(owner.auth);
    await blockAssistant(t, inbound);
    expect((await accept({ to: number.phoneNumber, from: CUSTOMER })).body).toEqual(NO_ASSISTANT);
    await blockAssistant(t, inbound, false);
    expect((await accept({ to: number.phoneNumber, from: CUSTOMER })).status).toBe(201);
  });

  it('402 when the owner cannot pay one minute', async () => {
    const poor = await t.createUser({ balance: 5 });
    const line = await purchaseNumber(t, poor);
    await inboundAssistant(t, poor, line.id);
    const balance = await balanceOf(t, poor);
    await t.http
      .post(`/api/admin/users/${poor.id}/balance`)
      .set(t.admin)
      .send({ amount: -(balance - 0.05), note: 'drain' });
    const res = await accept({ to: line.phoneNumber, from: CUSTOMER });
    expect([res.status, res.body]).toEqual([402, { message: 'Insufficient balance.' }]);
  });

  it('422 for invalid bodies', async () => {
    expect((await accept({})).body).toEqual({
      message: INVALID,
      errors: { to: ['The to field is required.'], from: ['The from field is required.'] },
    });
    expect((await accept({ to: 1, from: CUSTOMER, provider_call_id: 'p'.repeat(129) })).body).toEqual({
      message: INVALID,
      errors: {
        to: ['The to must be a string.'],
        provider_call_id: ['The provider call id may not be greater than 128 characters.'],
      },
    });
  });
});
