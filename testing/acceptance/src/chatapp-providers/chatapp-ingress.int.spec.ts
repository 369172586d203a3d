import { ChatappInboundHandler, ChatappInboundItem, TOKENS } from '@voiceplane/application';
import { hubSignatureOf } from '@voiceplane/adapter-whatsapp';
import { createTestApi, TestApi } from '@voiceplane/test-env';
import { eventually } from '@voiceplane/stand-ins/fault/webhook-receiver';
import {
  inboundMessages,
  METADATA,
  PHONE_NUMBER_ID,
  textMessage,
  WABA_ID,
} from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';

/** Provider ingress through the composed app with CHATAPP_PROVIDER=whatsapp_cloud. */

const APP_SECRET = 'whatsapp-app-secret-for-tests';
const VERIFY_TOKEN = 'verify-token-for-tests';
const PATH = '/api/providers/chatapp/whatsapp/webhook';

class RecordingHandler implements ChatappInboundHandler {
  readonly handled: ChatappInboundItem[] = [];
  async handle(item: ChatappInboundItem): Promise<void> {
    this.handled.push(item);
  }
}

/** Meta's bytes: the signature is over exactly these, spacing and escapes included. */
const metaBytes = (payload: object) => Buffer.from(JSON.stringify(payload, null, 1).replace(/é/g, '\\u00e9'));

describe('chat-app provider ingress (WhatsApp Cloud)', () => {
  let t: TestApi;
  const handler = new RecordingHandler();
  const inboxRows = async () =>
    (await t.db.dataSource.query(
      `SELECT provider, provider_item_id, kind, processed_at FROM chatapp_inbox_items ORDER BY id`,
    )) as Record<string, unknown>[];
  const post = (bytes: Buffer, signature: string | null) => {
    const req = t.http.post(PATH).set('Content-Type', 'application/json');
    // As text: superagent would serialise a Buffer under a JSON Content-Type.
    return (signature === null ? req : req.set('X-Hub-Signature-256', signature)).send(bytes.toString('utf8'));
  };

  beforeAll(async () => {
    t = await createTestApi({
      env: {
        CHATAPP_PROVIDER: 'whatsapp_cloud',
        REPLY_GENERATOR: 'off',
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
        WHATSAPP_GRAPH_BASE_URL: 'http://127.0.0.1:9/v21.0',
      },
      startBackground: false,
    });
    // The chat-app core binds the real handler; this test stands in for it before the workers start.
    const c = t.runtime.container;
    if (c.isBound(TOKENS.ChatappInboundHandler)) await c.unbind(TOKENS.ChatappInboundHandler);
    c.bind(TOKENS.ChatappInboundHandler).toConstantValue(handler);
    for (const task of t.runtime.background) await task.start();
  });
  afterAll(async () => {
    for (const task of [...t.runtime.background].reverse()) await task.stop();
    await t.close();
  });

  it('answers the verification handshake with the challenge as text/plain, and refuses a wrong token', async () => {
    const ok = await t.http.get(`${PATH}?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(ok.text).toBe('1158201444');

    for (const query of [
      `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
      `hub.mode=subscribe&hub.challenge=1`,
      `hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
    ]) {
      const refused = await t.http.get(`${PATH}?${query}`);
      expect([refused.status, refused.body]).toEqual([403, { error: 'Verification failed.' }]);
    }
  });

  it('serves only the whatsapp provider', async () => {
    for (const provider of ['sandbox', 'telegram', 'WHATSAPP']) {
      const get = await t.http.get(
        `/api/providers/chatapp/${provider}/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      );
      expect([get.status, get.body]).toEqual([404, { error: 'Unknown provider.' }]);
      const bytes = metaBytes(textMessage('wamid.x', 'hi'));
      const posted = await t.http
        .post(`/api/providers/chatapp/${provider}/webhook`)
        .set('Content-Type', 'application/json')
        .set('X-Hub-Signature-256', hubSignatureOf(APP_SECRET, bytes))
        .send(bytes.toString('utf8'));
      expect([posted.status, posted.body]).toEqual([404, { error: 'Unknown provider.' }]);
    }
  });

  it('rejects a missing or wrong signature with 401 and stores nothing', async () => {
    const bytes = metaBytes(textMessage('wamid.forged', 'Refund me'));
    const reserialised = Buffer.from(JSON.stringify(textMessage('wamid.forged', 'Refund me')));
    for (const signature of [
      null,
      'sha256=0000',
      hubSignatureOf('another-secret', bytes),
      hubSignatureOf(APP_SECRET, reserialised),
    ]) {
      const res = await post(bytes, signature);
      expect([res.status, res.body]).toEqual([401, { error: 'Invalid signature.' }]);
    }
    expect(await inboxRows()).toEqual([]);
  });

  it('acknowledges a signed notification at once, stores each item once, and hands it to the handler asynchronously', async () => {
    const bytes = metaBytes(
      textMessage('wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRB', 'Does it come in another colour? Café au lait?'),
    );
    const signature = hubSignatureOf(APP_SECRET, bytes);
    const first = await post(bytes, signature);
    expect([first.status, first.body]).toEqual([200, { received: true }]);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    // Meta redelivers what it thinks was not received: the same bytes again change nothing.
    const again = await post(bytes, signature);
    expect([again.status, again.body]).toEqual([200, { received: true }]);

    await eventually(
      async () => (await inboxRows()).every((r) => r.processed_at !== null) && handler.handled.length > 0,
      'the inbox item to be handled',
    );
    expect(await inboxRows()).toEqual([
      {
        provider: 'whatsapp',
        provider_item_id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRB',
        kind: 'customer_message',
        processed_at: expect.any(Date),
      },
    ]);
    expect(handler.handled).toEqual([
      {
        kind: 'customer_message',
        providerItemId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRB',
        providerSenderRef: PHONE_NUMBER_ID,
        customerPhone: '+16505551234',
        customerName: 'Sheena Nelson',
        text: 'Does it come in another colour? Café au lait?',
        media: null,
        receivedAt: new Date(1749416383 * 1000),
      },
    ]);

    // A later notification with the same message among new ones: only the new ones are handled.
    const statuses = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            textMessage('wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRB', 'Does it come in another colour? Café au lait?')
              .entry[0].changes[0],
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: METADATA,
                statuses: [
                  { id: 'wamid.out1', status: 'sent', timestamp: '1750263770', recipient_id: '16505551234' },
                  { id: 'wamid.out1', status: 'delivered', timestamp: '1750263773', recipient_id: '16505551234' },
                ],
              },
            },
          ],
        },
      ],
    };
    const mixed = metaBytes(statuses);
    expect((await post(mixed, hubSignatureOf(APP_SECRET, mixed))).status).toBe(200);
    await eventually(() => handler.handled.length === 3, 'the two status items to be handled');
    expect(
      handler.handled
        .slice(1)
        .map((i) => i.providerItemId)
        .sort(),
    ).toEqual(['wamid.out1:delivered', 'wamid.out1:sent']);
    expect((await inboxRows()).map((r) => r.provider_item_id)).toEqual([
      'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRB',
      'wamid.out1:sent',
      'wamid.out1:delivered',
    ]);
  });

  it('stores and hands over an item once when Meta delivers it several times at once', async () => {
    const bytes = metaBytes(textMessage('wamid.concurrent', 'Anyone there?'));
    const signature = hubSignatureOf(APP_SECRET, bytes);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(bytes, signature)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await eventually(
      () => handler.handled.some((i) => i.providerItemId === 'wamid.concurrent'),
      'the concurrent item to be handled',
    );
    await eventually(
      async () => (await inboxRows()).every((r) => r.processed_at !== null),
      'every inbox item to be handled',
    );
    expect(handler.handled.filter((i) => i.providerItemId === 'wamid.concurrent')).toHaveLength(1);
    expect((await inboxRows()).filter((r) => r.provider_item_id === 'wamid.concurrent')).toHaveLength(1);
  });

  it('acknowledges a signed notification with hostile items: refuses those alone, keeps the rest storable, never a 500', async () => {
    const message = (id: string, over: Record<string, unknown> = {}) => ({
      from: '16505551234',
      id,
      timestamp: '1749416383',
      type: 'text',
      text: { body: 'Hi' },
      ...over,
    });
    const payload = inboundMessages([
      message('wamid.hostile-nul\u0000'),
      message('wamid.hostile-surrogate\udc00'),
      message(`wamid.${'x'.repeat(600)}`),
      message('wamid.hostile-from', { from: '9'.repeat(300) }),
      message('wamid.hostile-text', { text: { body: 'bad\u0000\ud800text' } }),
      message('wamid.hostile-kept'),
    ]) as { entry: { changes: { value: { contacts: { profile: { name: string } }[] } }[] }[] };
    payload.entry[0].changes[0].value.contacts[0].profile.name = 'S'.repeat(10_000);
    const bytes = metaBytes(payload);
    const res = await post(bytes, hubSignatureOf(APP_SECRET, bytes));
    expect([res.status, res.body]).toEqual([200, { received: true }]);
    await eventually(
      () => handler.handled.some((i) => i.providerItemId === 'wamid.hostile-kept'),
      'the kept items to be handled',
    );
    const kept = handler.handled.filter(
      (i) => i.providerItemId.startsWith('wamid.hostile') || i.providerItemId.startsWith('wamid.xxx'),
    );
    expect(kept.map((i) => i.providerItemId).sort()).toEqual(['wamid.hostile-kept', 'wamid.hostile-text']);
    expect(kept.map((i) => (i.kind === 'customer_message' ? [i.text, i.customerName?.length] : null)).sort()).toEqual([
      ['Hi', 255],
      ['bad\uFFFD\uFFFDtext', 255],
    ]);
  });

  it('acknowledges a signed notification it cannot read, storing nothing', async () => {
    const before = (await inboxRows()).length;
    const bytes = Buffer.from(
      '{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[{"field":"smb_app_state_sync","value":{}}]}]}',
    );
    const res = await post(bytes, hubSignatureOf(APP_SECRET, bytes));
    expect([res.status, res.body]).toEqual([200, { received: true }]);
    expect(await inboxRows()).toHaveLength(before);
  });
});

describe('chat-app provider ingress with the sandbox provider', () => {
  it('is not served at all: WhatsApp is an unknown provider there, in the ingress family', async () => {
    const t = await createTestApi({ startBackground: false });
    try {
      const get = await t.http.get(`${PATH}?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1`);
      expect([get.status, get.body]).toEqual([404, { error: 'Unknown provider.' }]);
      const posted = await t.http.post(PATH).set('Content-Type', 'application/json').send('{}');
      expect([posted.status, posted.body]).toEqual([404, { error: 'Unknown provider.' }]);
    } finally {
      await t.close();
    }
  });
});
