import { JobHandler, TOKENS } from '@voiceplane/application';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { createAssistant, createSipTrunk, CUSTOMER, getCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * With VOICE_RUNTIME=livekit: make_call goes to LiveKit (a Twirp stub on 127.0.0.1), the runtime
 * reports back through the ingress, and the sandbox call controls do not exist.
 */

let t: TestApi;
let stub: TwirpStub;
let owner: TestUser;
let onTrunk: number;
let trunk: Awaited<ReturnType<typeof createSipTrunk>>;
const PLATFORM_TRUNK = 'ST_platformLine1';
const PLATFORM_NUMBER = '+14155550000';

beforeAll(async () => {
  stub = await TwirpStub.start();
  t = await createTestApi({
    startBackground: false,
    config: {
      voiceRuntime: 'livekit',
      livekit: {
        url: stub.url,
        apiKey: STUB_API_KEY,
        apiSecret: STUB_API_SECRET,
        sipEgressIp: null,
        agentName: 'voiceplane-assistant',
        outboundTrunkId: PLATFORM_TRUNK,
        platformCallerNumber: PLATFORM_NUMBER,
      },
    },
  });
  owner = await t.createUser({ balance: 10 });
  trunk = await createSipTrunk(t, owner);
  onTrunk = await createAssistant(t, owner, { phone_number_id: trunk.id, ringing_time: 20 });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});
beforeEach(() => stub.reset());

const makeCall = (assistantId: number) =>
  t.http.post('/api/user/make_call').set(owner.auth).send({ assistant_id: assistantId, phone_number: CUSTOMER });

describe('make_call on LiveKit', () => {
  it("dispatches the agent and dials out through the assistant's SIP trunk; the call waits for the runtime's reports", async () => {
    stub.answer('AgentDispatchService/CreateDispatch', {
      body: { id: 'AD_1', agent_name: 'voiceplane-assistant', room: 'r' },
    });
    stub.answer('SIP/CreateSIPParticipant', { body: { participant_id: 'PA_1' } });
    const res = await makeCall(onTrunk);
    expect([res.status, res.body]).toEqual([
      200,
      { message: 'Call initiated successfully', call_id: expect.any(Number), status: 'initiated' },
    ]);
    const id = res.body.call_id;
    expect(stub.requests.map((r) => r.method)).toEqual([
      'AgentDispatchService/CreateDispatch',
      'SIP/CreateSIPParticipant',
    ]);
    expect(stub.requests[0].body).toEqual({
      room: `vp-call-out-${id}`,
      agentName: 'voiceplane-assistant',
      metadata: JSON.stringify({ voiceplane: { call_id: id, account_id: owner.id, direction: 'outbound' } }),
    });
    expect(stub.requests[1].body).toEqual(
      expect.objectContaining({
        sipTrunkId: trunk.outbound_trunk_id,
        sipCallTo: CUSTOMER,
        sipNumber: trunk.phone_number,
        roomName: `vp-call-out-${id}`,
        ringingTimeout: '20s',
        maxCallDuration: '600s',
      }),
    );
    expect((await getCall(t, owner, id)).status).toBe('initiated');

    const ringing = await t.http
      .post(`/api/runtime/calls/${id}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'lk-1', type: 'ringing' });
    expect(ringing.body).toEqual({ ok: true, call: { id, status: 'ringing' } });
  });

  it('an assistant without a number calls from the configured platform line through the provider trunk', async () => {
    const numberless = await createAssistant(t, owner, {});
    stub.answer('AgentDispatchService/CreateDispatch', { body: { id: 'AD_9', room: 'r' } });
    stub.answer('SIP/CreateSIPParticipant', { body: { participant_id: 'PA_9' } });
    const res = await makeCall(numberless);
    expect(res.status).toBe(200);
    expect(stub.requests[1].body).toEqual(
      expect.objectContaining({ sipTrunkId: PLATFORM_TRUNK, sipNumber: PLATFORM_NUMBER, sipCallTo: CUSTOMER }),
    );
    expect((await getCall(t, owner, res.body.call_id)).assistant_phone).toBe(PLATFORM_NUMBER);
  });

  it('502 and a failed call when LiveKit refuses; the dispatch is taken back', async () => {
    stub.answer('AgentDispatchService/CreateDispatch', { body: { id: 'AD_2', room: 'r' } });
    stub.answer('SIP/CreateSIPParticipant', { status: 400, body: { code: 'invalid_argument', msg: 'no such trunk' } });
    stub.answer('AgentDispatchService/DeleteDispatch', { body: {} });
    const res = await makeCall(onTrunk);
    expect([res.status, res.body]).toEqual([502, { message: 'The call could not be placed. Please try again.' }]);
    expect(stub.requests.map((r) => r.method)).toEqual([
      'AgentDispatchService/CreateDispatch',
      'SIP/CreateSIPParticipant',
      'AgentDispatchService/DeleteDispatch',
    ]);
    const [latest] = (await t.http.get('/api/user/calls?per_page=1').set(owner.auth)).body.data;
    expect(latest).toEqual(expect.objectContaining({ status: 'failed', ended_reason: 'dispatch_failed', cost: 0 }));
  });

  it('fails a call the runtime never reported on once the dispatch watchdog runs; reported calls are left alone', async () => {
    stub.answer(
      'AgentDispatchService/CreateDispatch',
      { body: { id: 'AD_3', room: 'r' } },
      { body: { id: 'AD_4', room: 'r' } },
    );
    stub.answer('SIP/CreateSIPParticipant', { body: {} }, { body: {} });
    const silent = (await makeCall(onTrunk)).body.call_id;
    const reported = (await makeCall(onTrunk)).body.call_id;
    await t.http
      .post(`/api/runtime/calls/${reported}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'r-1', type: 'ringing' });
    const jobs = await t.db.dataSource.query(
      `SELECT key, run_at FROM scheduled_jobs WHERE kind = 'call.dispatch_watchdog' AND key = ANY($1)`,
      [[`call-dispatch:${silent}`, `call-dispatch:${reported}`]],
    );
    expect(jobs).toHaveLength(2);
    for (const job of jobs) expect(new Date(job.run_at).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);

    const watchdog = t.runtime.container
      .getAll<JobHandler>(TOKENS.JobHandler)
      .find((h) => h.kind === 'call.dispatch_watchdog') as JobHandler;
    const run = (callId: number) =>
      watchdog.handle({
        id: 1,
        kind: watchdog.kind,
        key: `call-dispatch:${callId}`,
        payload: { call_id: callId },
        attempts: 1,
        leaseToken: 'x',
      });
    await run(silent);
    await run(reported);
    expect(await getCall(t, owner, silent)).toEqual(
      expect.objectContaining({ status: 'failed', ended_reason: 'dispatch_lost', cost: 0 }),
    );
    expect((await getCall(t, owner, reported)).status).toBe('ringing');
  });

  it('422 when the assistant has no number and the platform has no default line', async () => {
    // A second instance on the same database, configured without a platform line.
    const noLine = await createTestApi({
      db: t.db,
      startBackground: false,
      config: {
        voiceRuntime: 'livekit',
        livekit: {
          url: stub.url,
          apiKey: STUB_API_KEY,
          apiSecret: STUB_API_SECRET,
          sipEgressIp: null,
          agentName: 'voiceplane-assistant',
          outboundTrunkId: null,
          platformCallerNumber: null,
        },
      },
    });
    try {
      const bare = await createAssistant(t, owner);
      const res = await noLine.http
        .post('/api/user/make_call')
        .set(owner.auth)
        .send({ assistant_id: bare, phone_number: CUSTOMER });
      expect([res.status, res.body]).toEqual([
        422,
        { message: 'The assistant has no phone number for outbound calls.' },
      ]);
      expect(stub.requests).toEqual([]);
      expect((await t.http.get(`/api/user/calls?assistant_id=${bare}`).set(owner.auth)).body.total).toBe(0);
    } finally {
      await noLine.close();
    }
  });

  it('has no sandbox call controls and no call_dispatch fault', async () => {
    for (const path of ['/api/sandbox/calls/1/answer', '/api/sandbox/calls/1/finish']) {
      const res = await t.http.post(path).set(owner.auth).send({ status: 'completed' });
      expect([path, res.status, res.body]).toEqual([path, 404, { message: 'Not found.' }]);
    }
    const fault = await t.http.post('/api/sandbox/faults').set(owner.auth).send({ kind: 'call_dispatch' });
    expect([fault.status, fault.body]).toEqual([404, { message: 'Not found.' }]);
  });
});
