import { randomBytes } from 'node:crypto';
import { hubSignatureOf } from '@voiceplane/adapter-whatsapp';
import { createTestApi, TestApi, TestUser } from '@voiceplane/test-env';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { GraphStandIn } from '@voiceplane/stand-ins/whatsapp/graph-stand-in';
import {
  inboundMessages,
  notification,
  PHONE_NUMBER_ID,
  textMessage,
  WABA_ID,
} from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';

/**
 * The composed app as it runs in production with WhatsApp (CHATAPP_PROVIDER=whatsapp_cloud,
 * REPLY_GENERATOR=openai) against a Graph API stand-in and a scripted model on 127.0.0.1: signed
 * notifications in, the assistant's reply out through Graph, media kept, senders following Meta.
 */

const APP_SECRET = 'whatsapp-app-secret-e2e';
const TOKEN = 'EAAG-e2e-system-user-token';
const SECOND_NUMBER_ID = '106540352242923';
const THIRD_NUMBER_ID = '106540352242924';
const CUSTOMER = '+16505551234';
const PHOTO = randomBytes(30_000);
const PATH = '/api/providers/chatapp/whatsapp/webhook';

let t: TestApi;
let graph: GraphStandIn;
let model: RecordingStub;
let owner: TestUser;

const signedPost = (payload: object, secret = APP_SECRET) => {
  const bytes = Buffer.from(JSON.stringify(payload));
  return t.http
    .post(PATH)
    .set('Content-Type', 'application/json')
    .set('X-Hub-Signature-256', hubSignatureOf(secret, bytes))
    .send(bytes.toString('utf8'));
};
const senders = async () =>
  (await t.http.get('/api/user/chatapp/senders?status=all').set(owner.auth)).body.data as Record<string, unknown>[];
const conversationMessages = async () => {
  const list = await t.http.get('/api/user/conversations').set(owner.auth);
  const uuid = list.body.data[0]?.uuid;
  if (!uuid) return [];
  return (await t.http.get(`/api/user/conversations/${uuid}/messages?per_page=50`).set(owner.auth)).body.data as Record<
    string,
    unknown
  >[];
};

beforeAll(async () => {
  graph = await GraphStandIn.start(TOKEN);
  graph.addNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    displayPhoneNumber: '+1 555-078-3881',
    status: 'CONNECTED',
    qualityRating: 'YELLOW',
    messagingLimitTier: 'TIER_10K',
  });
  graph.addNumber({
    phoneNumberId: SECOND_NUMBER_ID,
    displayPhoneNumber: '+1 555-078-3882',
    status: 'CONNECTED',
    qualityRating: 'GREEN',
    messagingLimitTier: 'TIER_UNLIMITED',
  });
  graph.addMedia('MEDIA-777', PHOTO, 'image/jpeg');
  model = await RecordingStub.start();
  model.respondWith(() => ({
    status: 200,
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Your order ships tomorrow.' }, finish_reason: 'stop' },
      ],
    },
  }));
  t = await createTestApi({
    env: {
      CHATAPP_PROVIDER: 'whatsapp_cloud',
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: 'verify-token-e2e',
      WHATSAPP_GRAPH_BASE_URL: graph.baseUrl,
      REPLY_GENERATOR: 'openai',
      OPENAI_API_KEY: 'sk-e2e',
      OPENAI_BASE_URL: `${model.baseUrl}v1`,
    },
    config: { publicBaseUrl: 'https://vp.example' },
  });
  owner = await t.createUser({ balance: 5 });
});
afterAll(async () => {
  await t.close();
  await graph.close();
  await model.close();
});

describe('WhatsApp Cloud in production mode, end to end', () => {
  it('registers senders from Graph, answers a signed customer message through the model and Graph, keeps media, and follows Meta on quality and account events', async () => {
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
          provider_config: { phone_number_id: phoneNumberId, waba_id: WABA_ID, access_token: TOKEN },
        });
    const first = await register('+15550783881', PHONE_NUMBER_ID);
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual(
      expect.objectContaining({
        provider: 'whatsapp',
        status: 'online',
        quality_rating: 'YELLOW',
        messaging_limit: 10_000,
        messaging_limit_formatted: '10,000 / 24hr',
      }),
    );
    expect(first.body.data).not.toHaveProperty('provider_config');
    expect((await register('+15550783882', SECOND_NUMBER_ID)).body.data).toEqual(
      expect.objectContaining({ messaging_limit: null, messaging_limit_formatted: 'Unlimited' }),
    );

    // A notification with a wrong signature changes nothing.
    expect((await signedPost(textMessage('wamid.FORGED', 'Hi'), 'not-the-app-secret')).status).toBe(401);
    // The customer writes: conversation, AI reply from the model, sent through Graph with the sender's token.
    const received = await signedPost(textMessage('wamid.IN1', 'Where is my order?'));
    expect([received.status, received.body]).toEqual([200, { received: true }]);
    await eventually(() => graph.messages().length === 1, 'the AI reply sent through Graph');
    expect(graph.messages()[0]).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '16505551234',
      type: 'text',
      text: { preview_url: false, body: 'Your order ships tomorrow.' },
    });
    expect(graph.requests.filter((r) => r.path.endsWith('/messages')).map((r) => [r.path, r.authorization])).toEqual([
      [`/v21.0/${PHONE_NUMBER_ID}/messages`, `Bearer ${TOKEN}`],
    ]);
    expect(JSON.parse(model.requests[0].body).messages.at(-1)).toEqual({ role: 'user', content: 'Where is my order?' });
    await eventually(async () => (await conversationMessages()).length === 2, 'the conversation with both messages');
    expect((await conversationMessages()).map((m) => [m.source, m.body, m.status])).toEqual([
      ['ai', 'Your order ships tomorrow.', 'queued'],
      ['customer', 'Where is my order?', 'received'],
    ]);
    expect(graph.messages().some((m) => JSON.stringify(m).includes('sandbox reply'))).toBe(false);

    // A photo: downloaded once through Graph into voiceplane's store and served to its owner.
    await signedPost(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.IN2',
          timestamp: '1749416390',
          type: 'image',
          image: { id: 'MEDIA-777', mime_type: 'image/jpeg', caption: 'Broken box' },
        },
      ]),
    );
    await eventually(
      async () => (await conversationMessages()).some((m) => m.type === 'media' && m.media_url !== null),
      'the photo kept',
    );
    const photo = (await conversationMessages()).find((m) => m.type === 'media')!;
    expect(photo).toEqual(expect.objectContaining({ body: 'Broken box', media_type: 'image', media_error: null }));
    expect(
      graph.requests
        .filter((r) => r.path === '/v21.0/MEDIA-777' || r.path === '/files/MEDIA-777')
        .map((r) => [r.path, r.authorization]),
    ).toEqual([
      ['/v21.0/MEDIA-777', `Bearer ${TOKEN}`],
      ['/files/MEDIA-777', `Bearer ${TOKEN}`],
    ]);
    const served = await t.http
      .get(new URL(photo.media_url as string).pathname)
      .set(owner.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect([served.status, served.headers['content-type'], (served.body as Buffer).equals(PHOTO)]).toEqual([
      200,
      'image/jpeg',
      true,
    ]);
    const stranger = await t.createUser();
    expect((await t.http.get(new URL(photo.media_url as string).pathname).set(stranger.auth)).status).toBe(404);

    // A file Graph no longer has: the message stays, with media_error, and no URL.
    await signedPost(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.IN3',
          timestamp: '1749416395',
          type: 'audio',
          audio: { id: 'MEDIA-GONE', mime_type: 'audio/ogg' },
        },
      ]),
    );
    await eventually(
      async () => (await conversationMessages()).some((m) => m.media_type === 'audio' && m.media_error !== null),
      'the voice note stored without its file',
    );
    expect((await conversationMessages()).find((m) => m.media_type === 'audio')).toEqual(
      expect.objectContaining({
        type: 'media',
        media_url: null,
        media_error: 'Unsupported request - method type: get',
      }),
    );

    // Quality events move quality and limit, never the status.
    await signedPost(
      notification(
        'phone_number_quality_update',
        { display_phone_number: '15550783881', event: 'FLAGGED', current_limit: 'TIER_1K' },
        1749416400,
      ),
    );
    await eventually(
      async () => (await senders()).some((s) => s.phone_number === '+15550783881' && s.quality_rating === 'RED'),
      'the quality event applied',
    );
    expect((await senders()).find((s) => s.phone_number === '+15550783881')).toEqual(
      expect.objectContaining({ status: 'online', messaging_limit: 1000, messaging_limit_formatted: '1,000 / 24hr' }),
    );

    // A number registered before Meta connected it is offline; the next event about it reads its node again.
    const pending = {
      phoneNumberId: THIRD_NUMBER_ID,
      displayPhoneNumber: '+1 555-078-3884',
      status: 'PENDING',
      qualityRating: 'UNKNOWN',
      messagingLimitTier: 'TIER_250',
    };
    graph.addNumber(pending);
    const third = await register('+15550783884', THIRD_NUMBER_ID);
    expect(third.body.data).toEqual(
      expect.objectContaining({ status: 'offline', quality_rating: 'GREEN', messaging_limit: 250 }),
    );
    graph.addNumber({ ...pending, status: 'CONNECTED', qualityRating: 'GREEN', messagingLimitTier: 'TIER_1K' });
    await signedPost(
      notification(
        'phone_number_quality_update',
        { display_phone_number: '15550783884', event: 'UPGRADE', current_limit: 'TIER_1K' },
        1749416450,
      ),
    );
    await eventually(
      async () => (await senders()).some((s) => s.phone_number === '+15550783884' && s.status === 'online'),
      'the connected number online',
    );
    expect((await senders()).find((s) => s.phone_number === '+15550783884')).toEqual(
      expect.objectContaining({ messaging_limit: 1000 }),
    );

    // Meta disables the business account: every sender of that WABA goes offline, and sends refuse.
    await signedPost(
      notification(
        'account_update',
        { event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: 'April 17, 2025' } },
        1749416500,
      ),
    );
    await eventually(
      async () => (await senders()).every((s) => s.status === 'offline'),
      'every sender of the account offline',
    );
    expect((await senders()).map((s) => s.status)).toEqual(['offline', 'offline', 'offline']);
    const refused = await t.http
      .post('/api/user/chatapp/send-freeform')
      .set(owner.auth)
      .send({ sender_id: first.body.data.id, recipient_phone: CUSTOMER, message: 'Hello?' });
    expect([refused.status, refused.body.error_code]).toEqual([503, 'SENDER_OFFLINE']);
  });
});
