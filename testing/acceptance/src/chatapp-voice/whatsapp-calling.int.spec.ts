import { hubSignatureOf } from '@voiceplane/adapter-whatsapp';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { STUB_API_KEY, STUB_API_SECRET, TwirpStub } from '@voiceplane/stand-ins/livekit/twirp-stub';
import { GraphStandIn } from '@voiceplane/stand-ins/whatsapp/graph-stand-in';
import { notification, WABA_ID } from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';

/**
 * Chat-app calls in production (CHATAPP_PROVIDER=whatsapp_cloud, VOICE_RUNTIME=livekit) against a
 * Graph stand-in and LiveKit's Twirp stub on 127.0.0.1: a sender's registration turns SIP calling
 * on and gives it its own trunk to wa.meta.vc; its calls dial the customer in WhatsApp through
 * that trunk; a number Meta does not let call answers CALLING_NOT_ENABLED and stores nothing.
 */

const APP_SECRET = 'whatsapp-app-secret-calls';
const TOKEN = 'EAAG-calls-system-user-token';
const CALLING_ID = '206540352242922';
const SILENT_ID = '206540352242923';
const SIP_PASSWORD = 'meta-issued-sip-password-1';
const CUSTOMER = '+16505551234';
const PATH = '/api/providers/chatapp/whatsapp/webhook';

let t: TestApi;
let graph: GraphStandIn;
let livekit: TwirpStub;
let owner: TestUser;
let trunks = 0;
/** The chat-app call the first test placed, queued and dialled. */
let placedCallId = 0;

const signedPost = (payload: object) => {
  const bytes = Buffer.from(JSON.stringify(payload));
  return t.http
    .post(PATH)
    .set('Content-Type', 'application/json')
    .set('X-Hub-Signature-256', hubSignatureOf(APP_SECRET, bytes))
    .send(bytes.toString('utf8'));
};
/** The customer writes and grants calls permanently, to the number `phoneNumberId`. */
const customerGrants = (phoneNumberId: string, display: string) =>
  signedPost(
    notification('messages', {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: display, phone_number_id: phoneNumberId },
      contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
      messages: [
        {
          from: '16505551234',
          id: `wamid.HI-${phoneNumberId}`,
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'Call me' },
        },
        {
          from: '16505551234',
          id: `wamid.OK-${phoneNumberId}`,
          timestamp: '1749416384',
          type: 'interactive',
          interactive: {
            type: 'call_permission_reply',
            call_permission_reply: { response: 'accept', is_permanent: true },
          },
        },
      ],
    }),
  );
const permission = (senderId: number) =>
  t.http
    .get(`/api/user/chatapp/voice/permission?sender_id=${senderId}&recipient_phone=${encodeURIComponent(CUSTOMER)}`)
    .set(owner.auth);
const placeCall = (senderId: number) =>
  t.http.post('/api/user/chatapp/voice/call').set(owner.auth).send({ sender_id: senderId, recipient_phone: CUSTOMER });
const chatappCalls = async () =>
  (await t.db.dataSource.query(`SELECT id, status, sender_id FROM calls WHERE channel = 'chatapp' AND user_id = $1`, [
    owner.id,
  ])) as { id: string; status: string }[];

beforeAll(async () => {
  graph = await GraphStandIn.start(TOKEN);
  graph.addNumber({
    phoneNumberId: CALLING_ID,
    displayPhoneNumber: '+49 30 12345670',
    status: 'CONNECTED',
    qualityRating: 'GREEN',
    messagingLimitTier: 'TIER_1K',
  });
  graph.addNumber({
    phoneNumberId: SILENT_ID,
    displayPhoneNumber: '+49 30 12345671',
    status: 'CONNECTED',
    qualityRating: 'GREEN',
    messagingLimitTier: 'TIER_1K',
  });
  graph.allowCalling(CALLING_ID, SIP_PASSWORD);
  livekit = await TwirpStub.start();
  livekit.respondWith((r) => {
    if (r.method === 'SIP/CreateSIPOutboundTrunk') return { body: { sip_trunk_id: `ST_wa${++trunks}` } };
    if (r.method === 'AgentDispatchService/CreateDispatch')
      return { body: { id: 'AD_1', agent_name: 'voiceplane-assistant', room: r.body.room } };
    if (r.method === 'SIP/CreateSIPParticipant')
      return { body: { participant_id: 'PA_1', room_name: r.body.roomName } };
    return undefined;
  });
  t = await createTestApi({
    env: {
      CHATAPP_PROVIDER: 'whatsapp_cloud',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-calls',
      WHATSAPP_GRAPH_BASE_URL: graph.baseUrl,
      WHATSAPP_SIP_SERVER_HOST: 'sip.voiceplane.example',
      REPLY_GENERATOR: 'off',
      VOICE_RUNTIME: 'livekit',
      LIVEKIT_URL: livekit.url,
      LIVEKIT_API_KEY: STUB_API_KEY,
      LIVEKIT_API_SECRET: STUB_API_SECRET,
    },
  });
  owner = await t.createUser({ balance: 10 });
});
afterAll(async () => {
  await t.close();
  await graph.close();
  await livekit.close();
});

describe('chat-app calls over WhatsApp Business Calling (SIP)', () => {
  it('gives a calling sender its own trunk to wa.meta.vc and dials the customer in WhatsApp; a number that cannot call answers CALLING_NOT_ENABLED', async () => {
    const assistant = await createAssistant(t, owner, { name: 'Support', system_prompt: 'Help with orders.' });
    expect((await t.http.post(`/api/user/assistant/${assistant}/activate`).set(owner.auth)).status).toBe(200);
    const register = (phone: string, phoneNumberId: string) =>
      t.http
        .post('/api/user/chatapp/senders')
        .set(owner.auth)
        .send({
          phone_number: phone,
          display_name: 'Acme Support',
          assistant_id: assistant,
          calling_enabled: true,
          provider_config: { phone_number_id: phoneNumberId, waba_id: WABA_ID, access_token: TOKEN },
        });

    const calling = await register('+493012345670', CALLING_ID);
    expect(calling.status).toBe(201);
    expect(JSON.stringify(calling.body)).not.toContain(SIP_PASSWORD);
    const enable = graph.requests.find((r) => r.method === 'POST' && r.path === `/v21.0/${CALLING_ID}/settings`);
    expect(JSON.parse(enable!.body)).toEqual({
      calling: {
        status: 'ENABLED',
        srtp_key_exchange_protocol: 'SDES',
        sip: { status: 'ENABLED', servers: [{ hostname: 'sip.voiceplane.example', port: 5061 }] },
      },
    });
    expect(
      graph.requests.some(
        (r) => r.method === 'GET' && r.path === `/v21.0/${CALLING_ID}/settings?include_sip_credentials=true`,
      ),
    ).toBe(true);
    expect(livekit.requests.map((r) => [r.method, r.body])).toEqual([
      [
        'SIP/CreateSIPOutboundTrunk',
        {
          trunk: expect.objectContaining({
            address: 'wa.meta.vc',
            numbers: ['+493012345670'],
            transport: 'SIP_TRANSPORT_TLS',
            mediaEncryption: 'SIP_MEDIA_ENCRYPT_REQUIRE',
            authUsername: '+493012345670',
            authPassword: SIP_PASSWORD,
          }),
        },
      ],
    ]);
    // The SIP password is kept sealed, like SIP trunk passwords.
    const [stored] = await t.db.dataSource.query(
      `SELECT calling_trunk_id, calling_sip_password, calling_error FROM chatapp_senders WHERE id = $1`,
      [calling.body.data.id],
    );
    expect(stored).toEqual({
      calling_trunk_id: 'ST_wa1',
      calling_sip_password: expect.any(String),
      calling_error: null,
    });
    expect(stored.calling_sip_password).not.toContain(SIP_PASSWORD);

    // Meta refuses calling for the second number: registered all the same, without a line, with the reason kept.
    const silent = await register('+493012345671', SILENT_ID);
    expect(silent.status).toBe(201);
    expect(livekit.requests).toHaveLength(1);
    const [refused] = await t.db.dataSource.query(
      `SELECT calling_trunk_id, calling_error FROM chatapp_senders WHERE id = $1`,
      [silent.body.data.id],
    );
    expect(refused).toEqual({
      calling_trunk_id: null,
      calling_error: '(#138018) Calling is not available for this business phone number',
    });

    await customerGrants(CALLING_ID, '493012345670');
    await customerGrants(SILENT_ID, '493012345671');
    await eventually(
      async () =>
        (await permission(calling.body.data.id)).body.can_call === true &&
        (await permission(silent.body.data.id)).body.status === 'granted',
      'both grants',
    );
    const preflight = (await permission(silent.body.data.id)).body.actions.find(
      (a: { action_name: string }) => a.action_name === 'start_call',
    );
    expect(preflight).toEqual(expect.objectContaining({ can_perform: false, reason: 'calling_not_enabled' }));

    const cannot = await placeCall(silent.body.data.id);
    expect([cannot.status, cannot.body]).toEqual([
      422,
      { success: false, error: 'Calling is not enabled for this sender.', error_code: 'CALLING_NOT_ENABLED' },
    ]);
    expect(await chatappCalls()).toEqual([]);

    livekit.reset();
    livekit.respondWith((r) => {
      if (r.method === 'AgentDispatchService/CreateDispatch')
        return { body: { id: 'AD_1', agent_name: 'voiceplane-assistant', room: r.body.room } };
      if (r.method === 'SIP/CreateSIPParticipant')
        return { body: { participant_id: 'PA_1', room_name: r.body.roomName } };
      return undefined;
    });
    const placed = await placeCall(calling.body.data.id);
    expect([placed.status, placed.body]).toEqual([
      200,
      { success: true, status: 'queued', sender_id: calling.body.data.id, customer_phone: CUSTOMER },
    ]);
    await eventually(
      () => livekit.requests.some((r) => r.method === 'SIP/CreateSIPParticipant'),
      'the customer dialled in WhatsApp',
    );
    const [call] = await chatappCalls();
    expect(livekit.requests.find((r) => r.method === 'SIP/CreateSIPParticipant')!.body).toEqual(
      expect.objectContaining({
        sipTrunkId: 'ST_wa1',
        sipCallTo: CUSTOMER,
        sipNumber: '+493012345670',
        roomName: `vp-call-out-${call.id}`,
      }),
    );
    expect(call.status).toBe('queued');
    placedCallId = Number(call.id);
  });

  it("records WhatsApp's own call events against the chat-app call once, and acknowledges those of no call", async () => {
    const callEvents = (calls: object[], phoneNumberId = CALLING_ID) =>
      signedPost(
        notification('calls', {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: '493012345670', phone_number_id: phoneNumberId },
          calls,
        }),
      );
    const now = Math.floor(Date.now() / 1000);
    const connect = {
      id: 'wacid.HBgLMTY1MDU1NTEyMzQ',
      to: '16505551234',
      from: '493012345670',
      event: 'connect',
      timestamp: String(now),
      direction: 'BUSINESS_INITIATED',
    };
    const terminate = {
      ...connect,
      event: 'terminate',
      timestamp: String(now + 42),
      status: 'COMPLETED',
      duration: 42,
    };
    const detail = async () => (await t.http.get(`/api/user/calls/${placedCallId}`).set(owner.auth)).body.data;
    const reports = async () =>
      (await t.db.dataSource.query(`SELECT call_id, meta_call_id FROM chatapp_call_reports`)) as {
        call_id: string;
        meta_call_id: string;
      }[];
    expect(await detail()).not.toHaveProperty('chatapp_report');

    expect((await callEvents([connect])).status).toBe(200);
    await eventually(async () => (await detail()).chatapp_report !== undefined, 'the connect recorded');
    expect((await detail()).chatapp_report).toEqual({
      provider_call_id: connect.id,
      connected_at: new Date(now * 1000).toISOString(),
      terminated_at: null,
      duration: null,
      status: null,
    });

    // The terminate arrives twice (Meta redelivers), together with an event of a call nobody placed and one for a number nobody registered.
    const stray = { ...connect, id: 'wacid.STRAY', to: '16505550000' };
    expect((await callEvents([terminate, stray])).status).toBe(200);
    expect((await callEvents([terminate])).status).toBe(200);
    expect((await callEvents([{ ...terminate, id: 'wacid.ELSEWHERE' }], '999999999999999')).status).toBe(200);
    await eventually(async () => (await detail()).chatapp_report.terminated_at !== null, 'the terminate recorded');
    const inboxed = async () =>
      (await t.db.dataSource.query(`SELECT count(*)::int AS n FROM chatapp_inbox_items WHERE processed_at IS NULL`))[0]
        .n as number;
    await eventually(async () => (await inboxed()) === 0, 'every event handled');
    expect((await detail()).chatapp_report).toEqual({
      provider_call_id: connect.id,
      connected_at: new Date(now * 1000).toISOString(),
      terminated_at: new Date((now + 42) * 1000).toISOString(),
      duration: 42,
      status: 'completed',
    });
    expect(await reports()).toEqual([{ call_id: String(placedCallId), meta_call_id: connect.id }]);
    // The call's own state stays the voice runtime's.
    expect((await detail()).status).toBe('queued');
  });

  it('holds no transaction open while LiveKit takes a chat-app call', async () => {
    const OTHER = '+16505559876';
    const [sender] = await t.db.dataSource.query(`SELECT id FROM chatapp_senders WHERE phone_number = '+493012345670'`);
    await signedPost(
      notification('messages', {
        messaging_product: 'whatsapp',
        metadata: { display_phone_number: '493012345670', phone_number_id: CALLING_ID },
        contacts: [{ profile: { name: 'Other' }, wa_id: '16505559876' }],
        messages: [
          {
            from: '16505559876',
            id: 'wamid.OK-OTHER',
            timestamp: '1749416390',
            type: 'interactive',
            interactive: {
              type: 'call_permission_reply',
              call_permission_reply: { response: 'accept', is_permanent: true },
            },
          },
        ],
      }),
    );
    const permitted = async () =>
      (
        await t.http
          .get(`/api/user/chatapp/voice/permission?sender_id=${sender.id}&recipient_phone=${encodeURIComponent(OTHER)}`)
          .set(owner.auth)
      ).body.can_call === true;
    await eventually(permitted, 'the grant');
    const DELAY_MS = 300;
    const heldOpen: number[] = [];
    livekit.reset();
    livekit.respondWith((r) => {
      if (r.method === 'AgentDispatchService/CreateDispatch')
        return { body: { id: 'AD_2', agent_name: 'voiceplane-assistant', room: r.body.room } };
      if (r.method === 'SIP/CreateSIPParticipant')
        return { body: { participant_id: 'PA_2', room_name: r.body.roomName } };
      return undefined;
    });
    // LiveKit answers slowly; just before it does, no connection of the app has sat idle inside a transaction for half that long.
    livekit.holdReplies(async () => {
      await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
      const [{ n }] = await t.db.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'
            AND clock_timestamp() - xact_start > $1 * interval '1 millisecond'`,
        [DELAY_MS / 2],
      );
      heldOpen.push(n);
    });
    const placed = await t.http
      .post('/api/user/chatapp/voice/call')
      .set(owner.auth)
      .send({ sender_id: sender.id, recipient_phone: OTHER });
    expect(placed.status).toBe(200);
    await eventually(async () => heldOpen.length === 2, 'the dispatch and the SIP participant answered');
    expect(heldOpen).toEqual([0, 0]);
    expect(livekit.requests.map((r) => r.method)).toEqual([
      'AgentDispatchService/CreateDispatch',
      'SIP/CreateSIPParticipant',
    ]);
    const [call] = await t.db.dataSource.query(
      `SELECT status FROM calls WHERE channel = 'chatapp' AND customer_phone = $1`,
      [OTHER],
    );
    expect(call.status).toBe('queued');
  });

  it('sets the line up when calling is turned on for a sender registered without it', async () => {
    const LATER_ID = '206540352242924';
    graph.addNumber({
      phoneNumberId: LATER_ID,
      displayPhoneNumber: '+49 30 12345672',
      status: 'CONNECTED',
      qualityRating: 'GREEN',
      messagingLimitTier: 'TIER_1K',
    });
    graph.allowCalling(LATER_ID, 'meta-issued-sip-password-2');
    livekit.reset();
    livekit.respondWith((r) =>
      r.method === 'SIP/CreateSIPOutboundTrunk' ? { body: { sip_trunk_id: 'ST_later' } } : undefined,
    );
    const later = await t.http
      .post('/api/user/chatapp/senders')
      .set(owner.auth)
      .send({
        phone_number: '+493012345672',
        display_name: 'Acme Later',
        provider_config: { phone_number_id: LATER_ID, waba_id: WABA_ID, access_token: TOKEN },
      });
    expect(later.status).toBe(201);
    expect(livekit.requests).toEqual([]);
    expect(
      (
        await t.http
          .put(`/api/user/chatapp/senders/${later.body.data.id}`)
          .set(owner.auth)
          .send({ calling_enabled: true })
      ).status,
    ).toBe(200);
    expect(livekit.requests.map((r) => [r.method, (r.body.trunk as { authPassword: string }).authPassword])).toEqual([
      ['SIP/CreateSIPOutboundTrunk', 'meta-issued-sip-password-2'],
    ]);
    const [stored] = await t.db.dataSource.query(`SELECT calling_trunk_id FROM chatapp_senders WHERE id = $1`, [
      later.body.data.id,
    ]);
    expect(stored.calling_trunk_id).toBe('ST_later');
  });
});
