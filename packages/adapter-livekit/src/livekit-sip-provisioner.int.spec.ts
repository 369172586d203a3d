import { createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { LiveKitSipProvisioner } from './livekit-sip-provisioner';

/**
 * The LiveKit SIP adapter against a stub of LiveKit's Twirp API on 127.0.0.1: the SDK POSTs JSON to
 * `/twirp/livekit.<Service>/<Method>` with a signed JWT. Each test checks the exact requests.
 */

interface Seen {
  readonly path: string;
  readonly body: unknown;
  readonly claims: Record<string, unknown>;
}

type Answer = { status?: number; body: unknown };

const API_KEY = 'APItestkey';
const API_SECRET = 'test-secret-that-is-long-enough-for-hs256';

let server: Server;
let url: string;
let seen: Seen[] = [];
let answers: Record<string, Answer[]> = {};

/** Verifies the HS256 token the SDK signed and returns its claims. */
function claimsOf(authorization: string | undefined): Record<string, unknown> {
  const token = (authorization ?? '').replace(/^Bearer /, '');
  const [header, payload, signature] = token.split('.');
  const expected = createHmac('sha256', API_SECRET).update(`${header}.${payload}`).digest('base64url');
  if (signature !== expected) throw new Error('bad signature');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const path = req.url ?? '';
    let claims: Record<string, unknown> = {};
    try {
      claims = claimsOf(req.headers.authorization);
    } catch {
      res
        .writeHead(401, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ code: 'unauthenticated', msg: 'bad token' }));
      return;
    }
    seen.push({ path, body: raw ? JSON.parse(raw) : null, claims });
    const answer = answers[path]?.shift() ?? { status: 404, body: { code: 'bad_route', msg: `no stub for ${path}` } };
    res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
  });
}

function answer(method: string, ...list: Answer[]): void {
  answers[`/twirp/livekit.${method}`] = list;
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
  answers = {};
});

const owner = { accountId: 7, phoneNumberId: 31 };
const metadata = JSON.stringify({ voiceplane: { account_id: 7, phone_number_id: 31 } });
const credentials = { username: 'acme-trunk', password: 's3cret' };
const provisioner = (egress: string | null = null) =>
  new LiveKitSipProvisioner({ url, apiKey: API_KEY, apiSecret: API_SECRET, sipEgressIp: egress });

describe('LiveKit SIP provisioner', () => {
  it('creates an inbound trunk with digest credentials for `auth`', async () => {
    answer('SIP/CreateSIPInboundTrunk', { body: { sip_trunk_id: 'ST_in000000001' } });
    const id = await provisioner().createInboundTrunk({
      owner,
      phoneNumber: '+493012345678',
      credentials,
      authorization: 'auth',
      allowedAddresses: [],
    });
    expect(id).toBe('ST_in000000001');
    expect(seen).toEqual([
      {
        path: '/twirp/livekit.SIP/CreateSIPInboundTrunk',
        body: {
          trunk: {
            name: 'vp-31-in',
            metadata,
            numbers: ['+493012345678'],
            authUsername: 'acme-trunk',
            authPassword: 's3cret',
          },
        },
        claims: expect.objectContaining({ iss: API_KEY, sip: { admin: true } }),
      },
    ]);
  });

  it('creates an inbound trunk with the allow-list (and no credentials) for `ip`', async () => {
    answer('SIP/CreateSIPInboundTrunk', { body: { sipTrunkId: 'ST_in000000002' } });
    const id = await provisioner().createInboundTrunk({
      owner,
      phoneNumber: '100',
      credentials,
      authorization: 'ip',
      allowedAddresses: ['203.0.113.10', '198.51.100.0/24'],
    });
    expect(id).toBe('ST_in000000002');
    expect(seen[0].body).toEqual({
      trunk: { name: 'vp-31-in', metadata, numbers: ['100'], allowedAddresses: ['203.0.113.10', '198.51.100.0/24'] },
    });
  });

  it('creates an outbound trunk towards the carrier', async () => {
    answer('SIP/CreateSIPOutboundTrunk', { body: { sip_trunk_id: 'ST_out00000001' } });
    const id = await provisioner().createOutboundTrunk({
      owner,
      phoneNumber: '+493012345678',
      credentials,
      address: 'sip.carrier.example',
      viaFixedEgress: false,
    });
    expect(id).toBe('ST_out00000001');
    expect(seen).toEqual([
      {
        path: '/twirp/livekit.SIP/CreateSIPOutboundTrunk',
        body: {
          trunk: {
            name: 'vp-31-out',
            metadata,
            address: 'sip.carrier.example',
            numbers: ['+493012345678'],
            authUsername: 'acme-trunk',
            authPassword: 's3cret',
          },
        },
        claims: expect.objectContaining({ sip: { admin: true } }),
      },
    ]);
  });

  it('sends outbound-proxy trunks to the fixed-egress proxy, naming the carrier in a header', async () => {
    answer('SIP/CreateSIPOutboundTrunk', { body: { sip_trunk_id: 'ST_out00000002' } });
    await provisioner('203.0.113.250').createOutboundTrunk({
      owner,
      phoneNumber: '+4930',
      credentials,
      address: 'sip.carrier.example',
      viaFixedEgress: true,
    });
    expect(seen[0].body).toEqual({
      trunk: {
        name: 'vp-31-out',
        metadata,
        address: '203.0.113.250',
        numbers: ['+4930'],
        authUsername: 'acme-trunk',
        authPassword: 's3cret',
        headers: { 'X-Voiceplane-Carrier': 'sip.carrier.example' },
      },
    });
    await expect(
      provisioner(null).createOutboundTrunk({
        owner,
        phoneNumber: '+4930',
        credentials,
        address: 'h',
        viaFixedEgress: true,
      }),
    ).rejects.toThrow('outbound_proxy needs LIVEKIT_SIP_EGRESS_IP');
  });

  it("creates a chat-app sender's trunk to WhatsApp's SIP edge: TLS, SRTP required, digest with the business number", async () => {
    answer('SIP/CreateSIPOutboundTrunk', { body: { sip_trunk_id: 'ST_wa000000001' } });
    const id = await provisioner().createChatappCallingTrunk({
      senderId: 12,
      accountId: 7,
      phoneNumber: '+4915550783881',
      sipPassword: 'meta-issued',
    });
    expect(id).toBe('ST_wa000000001');
    expect(seen[0].body).toEqual({
      trunk: {
        name: 'vp-chatapp-12-out',
        address: 'wa.meta.vc',
        numbers: ['+4915550783881'],
        transport: 'SIP_TRANSPORT_TLS',
        mediaEncryption: 'SIP_MEDIA_ENCRYPT_REQUIRE',
        metadata: JSON.stringify({ voiceplane: { account_id: 7, chatapp_sender_id: 12 } }),
        authUsername: '+4915550783881',
        authPassword: 'meta-issued',
      },
    });
  });

  it('routes inbound calls with one dispatch rule per number, and re-points it by its trunk list', async () => {
    answer('SIP/CreateSIPDispatchRule', { body: { sip_dispatch_rule_id: 'SDR_rule0000001' } });
    answer('SIP/UpdateSIPDispatchRule', {
      body: { sip_dispatch_rule_id: 'SDR_rule0000001', trunk_ids: ['ST_in000000009'] },
    });
    const p = provisioner();
    expect(await p.routeInboundCalls(owner, '+493012345678', 'ST_in000000001')).toBe('SDR_rule0000001');
    await p.pointInboundRoute('SDR_rule0000001', 'ST_in000000009');
    expect(seen.map((s) => [s.path, s.body])).toEqual([
      [
        '/twirp/livekit.SIP/CreateSIPDispatchRule',
        {
          rule: { dispatchRuleIndividual: { roomPrefix: 'vp-call-' } },
          trunkIds: ['ST_in000000001'],
          name: 'vp-31',
          metadata,
          attributes: { 'voiceplane.phone_number_id': '31', 'voiceplane.phone_number': '+493012345678' },
        },
      ],
      [
        '/twirp/livekit.SIP/UpdateSIPDispatchRule',
        { sipDispatchRuleId: 'SDR_rule0000001', update: { trunkIds: { set: ['ST_in000000009'] } } },
      ],
    ]);
  });

  it('makes each inbound room dispatch the voice agent when one is named', async () => {
    answer('SIP/CreateSIPDispatchRule', { body: { sip_dispatch_rule_id: 'SDR_rule0000002' } });
    const p = new LiveKitSipProvisioner({
      url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      sipEgressIp: null,
      agentName: 'voiceplane-assistant',
    });
    await p.routeInboundCalls(owner, '+493012345678', 'ST_in000000001');
    expect(seen[0].body).toEqual(
      expect.objectContaining({ roomConfig: { agents: [{ agentName: 'voiceplane-assistant' }] } }),
    );
  });

  it('deletes trunks and rules; something LiveKit no longer knows counts as deleted', async () => {
    answer('SIP/DeleteSIPTrunk', { body: {} }, { status: 404, body: { code: 'not_found', msg: 'trunk not found' } });
    answer('SIP/DeleteSIPDispatchRule', { status: 404, body: { code: 'not_found', msg: 'rule not found' } });
    const p = provisioner();
    await p.deleteTrunk('ST_a');
    await p.deleteTrunk('ST_b');
    await p.deleteInboundRoute('SDR_c');
    expect(seen.map((s) => [s.path, s.body])).toEqual([
      ['/twirp/livekit.SIP/DeleteSIPTrunk', { sipTrunkId: 'ST_a' }],
      ['/twirp/livekit.SIP/DeleteSIPTrunk', { sipTrunkId: 'ST_b' }],
      ['/twirp/livekit.SIP/DeleteSIPDispatchRule', { sipDispatchRuleId: 'SDR_c' }],
    ]);
  });

  it('other failures are thrown, so the caller can undo', async () => {
    answer('SIP/DeleteSIPTrunk', { status: 500, body: { code: 'internal', msg: 'boom' } });
    answer('SIP/CreateSIPInboundTrunk', {
      status: 400,
      body: { code: 'invalid_argument', msg: 'numbers are required' },
    });
    await expect(provisioner().deleteTrunk('ST_a')).rejects.toThrow('boom');
    await expect(
      provisioner().createInboundTrunk({
        owner,
        phoneNumber: '1',
        credentials,
        authorization: 'auth',
        allowedAddresses: [],
      }),
    ).rejects.toThrow('numbers are required');
  });

  it('finds active calls on a trunk through the SIP participants of our call rooms', async () => {
    answer(
      'RoomService/ListRooms',
      { body: { rooms: [{ name: 'vp-call-_+4930_abc' }, { name: 'team-standup' }] } },
      { body: { rooms: [{ name: 'vp-call-_+4930_abc' }] } },
    );
    answer(
      'RoomService/ListParticipants',
      {
        body: {
          participants: [
            { identity: 'agent', attributes: {} },
            { identity: 'sip_+4915', kind: 'SIP', attributes: { 'sip.trunkID': 'ST_busy' } },
          ],
        },
      },
      { body: { participants: [{ identity: 'sip_+4915', kind: 'SIP', attributes: { 'sip.trunkID': 'ST_busy' } }] } },
    );
    const p = provisioner();
    expect(await p.trunkHasActiveCalls('ST_busy')).toBe(true);
    expect(await p.trunkHasActiveCalls('ST_idle')).toBe(false);
    expect(seen.map((s) => [s.path, s.body])).toEqual([
      ['/twirp/livekit.RoomService/ListRooms', {}],
      ['/twirp/livekit.RoomService/ListParticipants', { room: 'vp-call-_+4930_abc' }],
      ['/twirp/livekit.RoomService/ListRooms', {}],
      ['/twirp/livekit.RoomService/ListParticipants', { room: 'vp-call-_+4930_abc' }],
    ]);
    expect(seen[0].claims).toEqual(expect.objectContaining({ video: { roomList: true } }));
  });
});
