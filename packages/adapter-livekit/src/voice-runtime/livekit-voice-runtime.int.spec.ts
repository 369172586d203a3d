import { CallToPlace } from '@voiceplane/application';
import { STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { LiveKitVoiceRuntime } from './livekit-voice-runtime';

/** The LiveKit voice runtime against a stub of LiveKit's Twirp API on 127.0.0.1. */

let stub: TwirpStub;
beforeAll(async () => {
  stub = await TwirpStub.start();
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const runtime = (providerTrunkId: string | null = null) =>
  new LiveKitVoiceRuntime({
    url: stub.url,
    apiKey: STUB_API_KEY,
    apiSecret: STUB_API_SECRET,
    agentName: 'voiceplane-assistant',
    providerTrunkId,
    platformLine: null,
  });

const viaTrunk: CallToPlace = {
  callId: 4812,
  userId: 7,
  customerPhone: '+442071234567',
  ringingTimeSeconds: 25,
  maxDurationSeconds: 600,
  line: {
    phoneNumberId: 31,
    phoneNumber: '+493012345678',
    sip: { outboundTrunkId: 'ST_g7H8i9J0k1L2', callingFormat: 'national', outboundProxy: false },
  },
};
const metadata = JSON.stringify({ voiceplane: { call_id: 4812, account_id: 7, direction: 'outbound' } });
const dispatched = { id: 'AD_abc123', agent_name: 'voiceplane-assistant', room: 'vp-call-out-4812', metadata };
const participant = {
  participant_id: 'PA_1',
  participant_identity: 'customer-4812',
  room_name: 'vp-call-out-4812',
  sip_call_id: 'SCL_1',
};

describe('LiveKit voice runtime', () => {
  it("dispatches the agent into the call's room, then dials the customer through the line's outbound trunk", async () => {
    stub.answer('AgentDispatchService/CreateDispatch', { body: dispatched });
    stub.answer('SIP/CreateSIPParticipant', { body: participant });
    await runtime().placeCall(viaTrunk);
    expect(stub.requests.map((r) => [r.method, r.body])).toEqual([
      [
        'AgentDispatchService/CreateDispatch',
        { room: 'vp-call-out-4812', agentName: 'voiceplane-assistant', metadata },
      ],
      [
        'SIP/CreateSIPParticipant',
        {
          sipTrunkId: 'ST_g7H8i9J0k1L2',
          sipCallTo: '02071234567',
          sipNumber: '+493012345678',
          roomName: 'vp-call-out-4812',
          participantIdentity: 'customer-4812',
          participantName: 'Customer',
          participantMetadata: metadata,
          ringingTimeout: '25s',
          maxCallDuration: '600s',
        },
      ],
    ]);
    const [dispatchClaims, sipClaims] = stub.requests.map((r) => r.claims);
    expect(dispatchClaims).toEqual(
      expect.objectContaining({
        iss: STUB_API_KEY,
        video: expect.objectContaining({ roomAdmin: true, room: 'vp-call-out-4812' }),
      }),
    );
    expect(sipClaims).toEqual(expect.objectContaining({ iss: STUB_API_KEY, sip: { call: true } }));
  });

  it('dials purchased-number and platform lines through the provider trunk, and refuses them without one', async () => {
    const purchased: CallToPlace = {
      ...viaTrunk,
      customerPhone: '+14155551234',
      line: { phoneNumberId: 41, phoneNumber: '+14155550134', sip: null },
    };
    await expect(runtime().placeCall(purchased)).rejects.toThrow(
      'No outbound trunk can carry calls from +14155550134.',
    );
    expect(stub.requests).toEqual([]);

    stub.answer('AgentDispatchService/CreateDispatch', { body: dispatched });
    stub.answer('SIP/CreateSIPParticipant', { body: participant });
    await runtime('ST_provider0001').placeCall(purchased);
    expect(stub.requests[1].body).toEqual(
      expect.objectContaining({ sipTrunkId: 'ST_provider0001', sipCallTo: '+14155551234', sipNumber: '+14155550134' }),
    );
  });

  it('takes the dispatch back when the customer cannot be dialled, and reports the refusal', async () => {
    stub.answer('AgentDispatchService/CreateDispatch', { body: dispatched });
    stub.answer('SIP/CreateSIPParticipant', {
      status: 400,
      body: { code: 'invalid_argument', msg: 'trunk not found' },
    });
    stub.answer('AgentDispatchService/DeleteDispatch', { body: dispatched });
    await expect(runtime().placeCall(viaTrunk)).rejects.toThrow('trunk not found');
    expect(stub.requests.map((r) => r.method)).toEqual([
      'AgentDispatchService/CreateDispatch',
      'SIP/CreateSIPParticipant',
      'AgentDispatchService/DeleteDispatch',
    ]);
    expect(stub.requests[2].body).toEqual({ dispatchId: 'AD_abc123', room: 'vp-call-out-4812' });
  });

  it('reports a refused dispatch without dialling', async () => {
    stub.answer('AgentDispatchService/CreateDispatch', {
      status: 503,
      body: { code: 'unavailable', msg: 'no agent workers' },
    });
    await expect(runtime().placeCall(viaTrunk)).rejects.toThrow('no agent workers');
    expect(stub.requests.map((r) => r.method)).toEqual(['AgentDispatchService/CreateDispatch']);
  });
});
