import { LiveKitVoiceRuntime } from '@voiceplane/adapter-livekit';
import { STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { voiceRuntimeContract } from './voice-runtime.contract';

type Body = Record<string, unknown>;

/**
 * LiveKit behind the Twirp stub, as far as placing a call goes: agent dispatches by room, and the
 * SIP participants dialled into those rooms. A call is held while its room has both. A refused
 * dial answers as LiveKit does when a trunk cannot carry the call.
 */
class LiveKitCalls {
  private readonly dispatches = new Map<string, string>();
  private readonly dialled = new Set<string>();
  private readonly refusedRooms = new Set<string>();
  private sequence = 0;

  constructor(stub: TwirpStub) {
    stub.respondWith((request) => {
      const body = request.body as Body;
      if (request.method === 'AgentDispatchService/CreateDispatch') {
        const id = `AD_lk${++this.sequence}`;
        this.dispatches.set(id, body.room as string);
        return { body: { id, agent_name: body.agentName, room: body.room, metadata: body.metadata } };
      }
      if (request.method === 'AgentDispatchService/DeleteDispatch') {
        this.dispatches.delete(body.dispatchId as string);
        return { body: { id: body.dispatchId, room: body.room } };
      }
      if (request.method === 'SIP/CreateSIPParticipant') {
        const room = body.roomName as string;
        if (this.refusedRooms.delete(room))
          return { status: 400, body: { code: 'invalid_argument', msg: 'trunk not found' } };
        this.dialled.add(room);
        return {
          body: {
            participant_id: `PA_${this.sequence}`,
            participant_identity: body.participantIdentity,
            room_name: room,
            sip_call_id: `SCL_${this.sequence}`,
          },
        };
      }
      return undefined;
    });
  }

  refuseDialInto(room: string): void {
    this.refusedRooms.add(room);
  }

  heldRooms(): string[] {
    return [...this.dispatches.values()].filter((room) => this.dialled.has(room));
  }
}

let stub: TwirpStub;
beforeAll(async () => {
  stub = await TwirpStub.start();
});
afterAll(async () => stub.close());

const ROOM = /^vp-call-out-(\d+)$/;

voiceRuntimeContract('LiveKit (Twirp stub)', async () => {
  stub.reset();
  const calls = new LiveKitCalls(stub);
  let callId = 4800;
  return {
    runtime: new LiveKitVoiceRuntime({
      url: stub.url,
      apiKey: STUB_API_KEY,
      apiSecret: STUB_API_SECRET,
      agentName: 'voiceplane-assistant',
      providerTrunkId: null,
      platformLine: { phoneNumberId: null, phoneNumber: '+15550000000', sip: null },
    }),
    callToPlace: async () => ({
      callId: ++callId,
      userId: 7,
      customerPhone: '+442071234567',
      ringingTimeSeconds: 25,
      maxDurationSeconds: 600,
      line: {
        phoneNumberId: 31,
        phoneNumber: '+493012345678',
        sip: { outboundTrunkId: 'ST_g7H8i9J0k1L2', callingFormat: '+e164', outboundProxy: false },
      },
    }),
    held: async () => calls.heldRooms().map((room) => Number(ROOM.exec(room)?.[1])),
    refuseNext: (call) => calls.refuseDialInto(`vp-call-out-${call.callId}`),
  };
});
