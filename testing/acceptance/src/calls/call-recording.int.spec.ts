import { TOKENS } from '@voiceplane/application';
import { recordingMediaKey } from '@voiceplane/domain';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { signedWebhook, STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { createAssistant, CUSTOMER, getCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * Call recordings with VOICE_RUNTIME=livekit, through the composed app: the agent reports the
 * recording's address with the end, the egress writes the file into the media store, the owner
 * fetches it through the product, and LiveKit's signed `egress_ended` webhook takes the address back
 * off a call whose recording was lost.
 */

let t: TestApi;
let stub: TwirpStub;
let owner: TestUser;
let stranger: TestUser;
let recorded: number;

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
        outboundTrunkId: 'ST_platform',
        platformCallerNumber: '+14155550000',
      },
    },
  });
  owner = await t.createUser({ balance: 10 });
  stranger = await t.createUser();
  recorded = await createAssistant(t, owner, { record: true });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

const recordingUrl = (id: number) => `https://vp.example.com/api/user/calls/${id}/recording`;

/** A call the agent held and ended, reporting the recording's address as it does when the egress started. */
async function endedCall(assistantId: number): Promise<number> {
  stub.answer('AgentDispatchService/CreateDispatch', { body: { id: 'AD_1', room: 'r' } });
  stub.answer('SIP/CreateSIPParticipant', { body: { participant_id: 'PA_1' } });
  const id = (
    await t.http.post('/api/user/make_call').set(owner.auth).send({ assistant_id: assistantId, phone_number: CUSTOMER })
  ).body.call_id as number;
  await t.http
    .post(`/api/runtime/calls/${id}/events`)
    .set(t.runtimeAuth)
    .send({ event_id: 'agent-answered', type: 'answered' })
    .expect(200);
  await t.http
    .post(`/api/runtime/calls/${id}/events`)
    .set(t.runtimeAuth)
    .send({
      event_id: 'agent-ended',
      type: 'ended',
      data: { status: 'completed', ended_reason: 'customer_hangup', recording_url: recordingUrl(id) },
    })
    .expect(200);
  return id;
}

const egressEnded = (callId: number, status: string) =>
  signedWebhook({
    event: 'egress_ended',
    id: `EV_${callId}_${status}`,
    egressInfo: {
      egressId: `EG_${callId}`,
      roomName: `vp-call-out-${callId}`,
      status,
      roomComposite: {
        roomName: `vp-call-out-${callId}`,
        audioOnly: true,
        fileOutputs: [{ fileType: 'OGG', filepath: `chatapp-media/${recordingMediaKey(callId)}` }],
      },
      fileResults:
        status === 'EGRESS_COMPLETE' ? [{ filename: `chatapp-media/${recordingMediaKey(callId)}`, size: '6' }] : [],
    },
  });
const postWebhook = (hook: { body: string; authorization: string }) =>
  t.http
    .post('/api/providers/livekit/webhook')
    .set('Content-Type', 'application/webhook+json')
    .set('Authorization', hook.authorization)
    .send(hook.body);

describe('call recordings', () => {
  it("serves the stored recording at the call's recording_url, to the owner only", async () => {
    const id = await endedCall(recorded);
    expect(await getCall(t, owner, id)).toEqual(
      expect.objectContaining({ status: 'completed', recording_url: recordingUrl(id) }),
    );
    // Still uploading: the address answers 404 like a recording that never was.
    expect((await t.http.get(`/api/user/calls/${id}/recording`).set(owner.auth)).status).toBe(404);

    await t.runtime.container
      .get(TOKENS.MediaStore)
      .put(recordingMediaKey(id), [Buffer.from('OggS\0\x02')], 'audio/ogg');
    const done = await postWebhook(egressEnded(id, 'EGRESS_COMPLETE'));
    expect([done.status, done.body]).toEqual([200, { received: true }]);
    const res = await t.http
      .get(`/api/user/calls/${id}/recording`)
      .set(owner.auth)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect([res.status, res.headers['content-type'], (res.body as Buffer).toString('latin1')]).toEqual([
      200,
      'audio/ogg',
      'OggS\0\x02',
    ]);
    expect(await getCall(t, owner, id)).toEqual(expect.objectContaining({ recording_url: recordingUrl(id) }));

    for (const [who, path] of [
      [stranger, `/api/user/calls/${id}/recording`],
      [owner, '/api/user/calls/999999999/recording'],
    ] as const) {
      const other = await t.http.get(path).set(who.auth);
      expect([other.status, other.body]).toEqual([404, { message: 'Recording not found' }]);
    }
    expect((await t.http.get(`/api/user/calls/${id}/recording`)).status).toBe(401);
  });

  it("deletes an ended call with its recording file, transcript and tool log, as the MCP server's delete_call asks", async () => {
    const id = await endedCall(recorded);
    const media = t.runtime.container.get(TOKENS.MediaStore);
    await media.put(recordingMediaKey(id), [Buffer.from('OggS')], 'audio/ogg');
    const log = t.runtime.container.get(TOKENS.ToolInvocationLog);
    log.record(
      {
        id: `tcl_delete${String(id).padStart(12, '0')}`,
        callId: id,
        userId: owner.id,
        toolId: 1,
        name: 'check_order',
        invocationId: null,
        at: new Date(),
      },
      { ok: true, statusCode: 200, content: '{}', truncated: false, durationMs: 5, error: null, warnings: [] },
    );
    expect(await log.listForCall(id, 100)).toHaveLength(1);

    const foreign = await t.http.delete(`/api/user/calls/${id}`).set(stranger.auth);
    expect([foreign.status, foreign.body]).toEqual([404, { message: 'Call not found' }]);
    const res = await t.http.delete(`/api/user/calls/${id}`).set(owner.auth);
    expect([res.status, res.body]).toEqual([200, { message: 'Call deleted successfully' }]);

    expect((await t.http.get(`/api/user/calls/${id}`).set(owner.auth)).status).toBe(404);
    expect((await t.http.get(`/api/user/calls/${id}/recording`).set(owner.auth)).status).toBe(404);
    expect(await media.open(recordingMediaKey(id))).toBeNull();
    expect(await log.listForCall(id, 100)).toEqual([]);
    const again = await t.http.delete(`/api/user/calls/${id}`).set(owner.auth);
    expect([again.status, again.body]).toEqual([404, { message: 'Call not found' }]);
  });

  it('refuses to delete a call still in progress (409) and changes nothing; ids of the wrong shape are 404', async () => {
    stub.answer('AgentDispatchService/CreateDispatch', { body: { id: 'AD_2', room: 'r' } });
    stub.answer('SIP/CreateSIPParticipant', { body: { participant_id: 'PA_2' } });
    const id = (
      await t.http.post('/api/user/make_call').set(owner.auth).send({ assistant_id: recorded, phone_number: CUSTOMER })
    ).body.call_id as number;
    await t.http
      .post(`/api/runtime/calls/${id}/events`)
      .set(t.runtimeAuth)
      .send({ event_id: 'live-answered', type: 'answered' })
      .expect(200);
    const res = await t.http.delete(`/api/user/calls/${id}`).set(owner.auth);
    expect([res.status, res.body]).toEqual([409, { message: 'The call is still in progress and cannot be deleted.' }]);
    expect(await getCall(t, owner, id)).toEqual(expect.objectContaining({ status: 'in-progress' }));
    for (const bad of ['abc', '0', '12345678901234567890123', '%ff']) {
      const miss = await t.http.delete(`/api/user/calls/${bad}`).set(owner.auth);
      expect([bad, miss.status, miss.body]).toEqual([bad, 404, { message: 'Call not found' }]);
    }
  });

  it('takes the address off a call whose recording LiveKit reports as failed', async () => {
    const id = await endedCall(recorded);
    const failed = await postWebhook(egressEnded(id, 'EGRESS_FAILED'));
    expect([failed.status, failed.body]).toEqual([200, { received: true }]);
    expect(await getCall(t, owner, id)).toEqual(expect.objectContaining({ status: 'completed', recording_url: null }));
    const again = await postWebhook(egressEnded(id, 'EGRESS_FAILED'));
    expect(again.status).toBe(200);
  });

  it('keeps no address for an assistant that does not record, whatever the runtime says', async () => {
    const id = await endedCall(await createAssistant(t, owner, { record: false }));
    expect(await getCall(t, owner, id)).toEqual(expect.objectContaining({ recording_url: null }));
  });

  it('refuses webhooks LiveKit did not sign, and changes nothing', async () => {
    const id = await endedCall(recorded);
    const forged = egressEnded(id, 'EGRESS_FAILED');
    const bad = await postWebhook({
      body: forged.body,
      authorization: signedWebhook({ event: 'room_finished' }).authorization,
    });
    expect([bad.status, bad.body]).toEqual([401, { error: 'Invalid signature.' }]);
    const unsigned = await t.http
      .post('/api/providers/livekit/webhook')
      .set('Content-Type', 'application/webhook+json')
      .send(forged.body);
    expect(unsigned.status).toBe(401);
    expect(await getCall(t, owner, id)).toEqual(expect.objectContaining({ recording_url: recordingUrl(id) }));
    // Events about anything else, and egress of other rooms, are acknowledged and ignored.
    expect(
      (await postWebhook(signedWebhook({ event: 'room_finished', id: 'EV_x', room: { name: 'vp-call-out-1' } })))
        .status,
    ).toBe(200);
  });
});
