import { LiveKitSipProvisioner } from '@voiceplane/adapter-livekit';
import { STUB_API_KEY, STUB_API_SECRET, TwirpAnswer, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { ProvidedRoute, ProvidedTrunk, SipProviderView, sipProvisionerContract } from './sip-provisioner.contract';

type Body = Record<string, unknown>;

const notFound = (what: string): TwirpAnswer => ({
  status: 404,
  body: { code: 'not_found', msg: `${what} not found` },
});

/**
 * LiveKit's SIP state behind the Twirp stub, as far as the SIP provisioner uses it: trunks,
 * dispatch rules, and `vp-call-` rooms whose SIP participant carries the trunk id. Like LiveKit,
 * it answers `not_found` for ids it does not hold and checks no references between objects.
 */
class LiveKitSipState implements SipProviderView {
  private readonly trunkTable = new Map<string, ProvidedTrunk>();
  private readonly ruleTable = new Map<string, ProvidedRoute>();
  /** Room name → the trunk its SIP participant called through. */
  private readonly callRooms = new Map<string, string>();
  private sequence = 0;
  private refusing = false;

  constructor(stub: TwirpStub) {
    const methods = new Map<string, (body: Body) => TwirpAnswer>();
    const serve = (method: string, respond: (body: Body) => TwirpAnswer) => methods.set(method, respond);
    stub.respondWith((request) => {
      const respond = methods.get(request.method);
      if (!respond) return undefined;
      if (!this.refusing) return respond(request.body);
      this.refusing = false;
      return { status: 500, body: { code: 'internal', msg: 'refused by the provider' } };
    });
    serve('SIP/CreateSIPInboundTrunk', (body) => this.createTrunk('inbound', body.trunk as Body));
    serve('SIP/CreateSIPOutboundTrunk', (body) => this.createTrunk('outbound', body.trunk as Body));
    serve('SIP/CreateSIPDispatchRule', (body) => {
      const id = this.nextId('SDR_');
      this.ruleTable.set(id, { id, inboundTrunkId: (body.trunkIds as string[])[0] });
      return { body: { sip_dispatch_rule_id: id } };
    });
    serve('SIP/UpdateSIPDispatchRule', (body) => {
      const id = body.sipDispatchRuleId as string;
      if (!this.ruleTable.has(id)) return notFound('dispatch rule');
      const trunkIds = ((body.update as Body).trunkIds as { set: string[] }).set;
      this.ruleTable.set(id, { id, inboundTrunkId: trunkIds[0] });
      return { body: { sip_dispatch_rule_id: id, trunk_ids: trunkIds } };
    });
    serve('SIP/DeleteSIPDispatchRule', (body) =>
      this.ruleTable.delete(body.sipDispatchRuleId as string) ? { body: {} } : notFound('dispatch rule'),
    );
    serve('SIP/DeleteSIPTrunk', (body) =>
      this.trunkTable.delete(body.sipTrunkId as string) ? { body: {} } : notFound('trunk'),
    );
    serve('RoomService/ListRooms', () => ({
      body: { rooms: [{ name: 'team-standup' }, ...[...this.callRooms.keys()].map((name) => ({ name }))] },
    }));
    serve('RoomService/ListParticipants', (body) => {
      const trunkId = this.callRooms.get(body.room as string);
      const caller = trunkId
        ? [{ identity: `sip_${body.room}`, kind: 'SIP', attributes: { 'sip.trunkID': trunkId } }]
        : [];
      return { body: { participants: [{ identity: 'agent', attributes: {} }, ...caller] } };
    });
  }

  trunks(): ProvidedTrunk[] {
    return [...this.trunkTable.values()];
  }

  routes(): ProvidedRoute[] {
    return [...this.ruleTable.values()];
  }

  startCall(trunkId: string): () => void {
    const room = `vp-call-_+4915112345678_${this.nextId('')}`;
    this.callRooms.set(room, trunkId);
    return () => this.callRooms.delete(room);
  }

  refuseNext(): void {
    this.refusing = true;
  }

  private createTrunk(direction: ProvidedTrunk['direction'], trunk: Body): TwirpAnswer {
    const id = this.nextId('ST_');
    this.trunkTable.set(id, { id, direction, phoneNumber: (trunk.numbers as string[])[0] });
    return { body: { sip_trunk_id: id } };
  }

  private nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}lk${String(this.sequence).padStart(10, '0')}`;
  }
}

let stub: TwirpStub;
beforeAll(async () => {
  stub = await TwirpStub.start();
});
afterAll(async () => stub.close());

sipProvisionerContract('LiveKit (Twirp stub)', () => {
  stub.reset();
  return {
    provisioner: new LiveKitSipProvisioner({
      url: stub.url,
      apiKey: STUB_API_KEY,
      apiSecret: STUB_API_SECRET,
      sipEgressIp: '203.0.113.250',
    }),
    provider: new LiveKitSipState(stub),
  };
});
