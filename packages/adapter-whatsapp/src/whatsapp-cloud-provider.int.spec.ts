import { ChatappProviderRefusal, ProviderSender } from '@voiceplane/application';
import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { WhatsappCloudProvider } from './whatsapp-cloud-provider';

/** The WhatsApp Cloud provider against a stub of the Graph API (v21.0) on 127.0.0.1. */

const PHONE_NUMBER_ID = '106540352242922';
const WABA_ID = '102290129340398';
const TOKEN = 'EAAG-test-access-token';

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({
    status: 500,
    body: { error: { message: 'no stub answer', type: 'OAuthException', code: 1 } },
  });
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const provider = (timeoutMs?: number) => new WhatsappCloudProvider({ baseUrl: `${stub.baseUrl}v21.0/`, timeoutMs });
const sender: ProviderSender = {
  senderId: 12,
  userId: 7,
  phoneNumber: '+15550783881',
  credentials: { phoneNumberId: PHONE_NUMBER_ID, wabaId: WABA_ID, accessToken: TOKEN },
};
const accepted = (id: string) => ({
  status: 200,
  body: {
    messaging_product: 'whatsapp',
    contacts: [{ input: '+4915112345678', wa_id: '4915112345678' }],
    messages: [{ id, message_status: 'accepted' }],
  },
});
const readAll = async (body: AsyncIterable<Uint8Array>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
};
const sentBody = () => JSON.parse(stub.requests[0].body);

describe('WhatsApp Cloud provider', () => {
  it('sends a positional template with its body parameters and reports it queued', async () => {
    stub.answer(accepted('wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0RkE'));
    const acceptance = await provider().sendTemplate(sender, '+4915112345678', {
      name: 'order_update',
      language: 'en_US',
      renderedText: 'Hi Ann, your order 42 has shipped.',
      parameters: [
        { name: '1', value: 'Ann' },
        { name: '2', value: '42' },
      ],
    });
    expect(acceptance).toEqual({ providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI0RkE', status: 'queued' });
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'POST',
        path: `/v21.0/${PHONE_NUMBER_ID}/messages`,
        authorization: `Bearer ${TOKEN}`,
        contentType: 'application/json',
      }),
    );
    expect(sentBody()).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '4915112345678',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ann' },
              { type: 'text', text: '42' },
            ],
          },
        ],
      },
    });
  });

  it('names the parameters of a named template and sends none for a template without variables', async () => {
    stub.answer(accepted('wamid.A'), accepted('wamid.B'));
    await provider().sendTemplate(sender, '+4915112345678', {
      name: 'welcome',
      language: 'en',
      renderedText: 'Hello Ann',
      parameters: [{ name: 'first_name', value: 'Ann' }],
    });
    expect(sentBody().template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'Ann' }] },
    ]);
    await provider().sendTemplate(sender, '+4915112345678', {
      name: 'hello_world',
      language: 'en_US',
      renderedText: 'Hello World',
      parameters: [],
    });
    expect(JSON.parse(stub.requests[1].body).template).toEqual({ name: 'hello_world', language: { code: 'en_US' } });
  });

  it('sends freeform text and media by link (caption where the chat app shows one, file name on documents)', async () => {
    stub.answer(
      accepted('wamid.T'),
      accepted('wamid.I'),
      accepted('wamid.A'),
      accepted('wamid.V'),
      accepted('wamid.D'),
    );
    const p = provider();
    await p.sendFreeform(sender, '+4915112345678', { kind: 'text', text: 'Your order is on its way.' });
    await p.sendFreeform(sender, '+4915112345678', {
      kind: 'media',
      mediaType: 'image',
      url: 'https://cdn.example.com/a.jpg',
      caption: 'The parcel',
      filename: 'a.jpg',
    });
    await p.sendFreeform(sender, '+4915112345678', {
      kind: 'media',
      mediaType: 'audio',
      url: 'https://cdn.example.com/a.ogg',
      caption: null,
      filename: null,
    });
    await p.sendFreeform(sender, '+4915112345678', {
      kind: 'media',
      mediaType: 'video',
      url: 'https://cdn.example.com/a.mp4',
      caption: null,
      filename: null,
    });
    await p.sendFreeform(sender, '+4915112345678', {
      kind: 'media',
      mediaType: 'document',
      url: 'https://cdn.example.com/i.pdf',
      caption: 'Invoice',
      filename: 'invoice.pdf',
    });
    const bodies = stub.requests.map((r) => JSON.parse(r.body));
    const common = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '4915112345678' };
    expect(bodies).toEqual([
      { ...common, type: 'text', text: { preview_url: false, body: 'Your order is on its way.' } },
      { ...common, type: 'image', image: { link: 'https://cdn.example.com/a.jpg', caption: 'The parcel' } },
      { ...common, type: 'audio', audio: { link: 'https://cdn.example.com/a.ogg' } },
      { ...common, type: 'video', video: { link: 'https://cdn.example.com/a.mp4' } },
      {
        ...common,
        type: 'document',
        document: { link: 'https://cdn.example.com/i.pdf', caption: 'Invoice', filename: 'invoice.pdf' },
      },
    ]);
  });

  it("turns Meta's refusals into ChatappProviderRefusal with Meta's message, and 5xx into outages", async () => {
    stub.answer(
      {
        status: 400,
        body: {
          error: {
            message: '(#131030) Recipient phone number not in allowed list',
            type: 'OAuthException',
            code: 131030,
            error_data: {
              messaging_product: 'whatsapp',
              details:
                'Recipient phone number not in allowed list: Add recipient phone number to recipient list and try again.',
            },
            fbtrace_id: 'AQbXyz',
          },
        },
      },
      { status: 503, body: { error: { message: 'Service temporarily unavailable', code: 2 } } },
    );
    const refused = provider().sendFreeform(sender, '+4915112345678', { kind: 'text', text: 'hi' });
    await expect(refused).rejects.toEqual(
      new ChatappProviderRefusal('(#131030) Recipient phone number not in allowed list'),
    );
    const outage = provider().sendFreeform(sender, '+4915112345678', { kind: 'text', text: 'hi' });
    await expect(outage).rejects.toThrow('WhatsApp Cloud API answered 503: Service temporarily unavailable');
    await expect(
      provider().sendFreeform(sender, '+4915112345678', { kind: 'text', text: 'hi' }),
    ).rejects.not.toBeInstanceOf(ChatappProviderRefusal);
  });

  it('gives up after its timeout without the access token in the error', async () => {
    stub.answer({ ...accepted('wamid.late'), delayMs: 2_000 });
    const error = await provider(100)
      .sendFreeform(sender, '+4915112345678', { kind: 'text', text: 'hi' })
      .catch((e: Error) => e);
    expect(error).toEqual(new Error('WhatsApp Cloud API timed out'));
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(String((error as Error).stack)).not.toContain(TOKEN);
  });

  it('refuses a sender without credentials without calling Meta', async () => {
    await expect(
      provider().sendFreeform({ ...sender, credentials: null }, '+4915112345678', { kind: 'text', text: 'hi' }),
    ).rejects.toBeInstanceOf(ChatappProviderRefusal);
    expect(stub.requests).toEqual([]);
  });

  it('submits a template for review with examples for its variables and maps the status Meta answers', async () => {
    stub.answer({ status: 200, body: { id: '594425479261596', status: 'PENDING', category: 'UTILITY' } });
    const submitted = await provider().submitTemplate(sender, {
      name: 'order_update',
      language: 'en_US',
      category: 'utility',
      bodyText: 'Hi {{1}}, your order {{2}} has shipped.',
      footerText: 'Acme',
    });
    expect(submitted).toEqual({ status: 'pending', providerTemplateRef: '594425479261596' });
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'POST',
        path: `/v21.0/${WABA_ID}/message_templates`,
        authorization: `Bearer ${TOKEN}`,
      }),
    );
    expect(sentBody()).toEqual({
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      components: [
        {
          type: 'BODY',
          text: 'Hi {{1}}, your order {{2}} has shipped.',
          example: { body_text: [['example_1', 'example_2']] },
        },
        { type: 'FOOTER', text: 'Acme' },
      ],
    });

    stub.answer(
      { status: 200, body: { id: '77', status: 'APPROVED', category: 'MARKETING' } },
      { status: 200, body: { id: '78', status: 'REJECTED', category: 'MARKETING' } },
    );
    const named = await provider().submitTemplate(sender, {
      name: 'promo',
      language: 'en',
      category: 'marketing',
      bodyText: 'Hi {{first_name}}',
      footerText: null,
    });
    expect(named).toEqual({ status: 'approved', providerTemplateRef: '77' });
    expect(JSON.parse(stub.requests[1].body)).toEqual({
      name: 'promo',
      language: 'en',
      category: 'MARKETING',
      parameter_format: 'NAMED',
      components: [
        {
          type: 'BODY',
          text: 'Hi {{first_name}}',
          example: { body_text_named_params: [{ param_name: 'first_name', example: 'example_first_name' }] },
        },
      ],
    });
    expect(
      (
        await provider().submitTemplate(sender, {
          name: 'x',
          language: 'en',
          category: 'voice_call_request',
          bodyText: 'May we call you?',
          footerText: null,
        })
      ).status,
    ).toBe('rejected');
    expect(JSON.parse(stub.requests[2].body).components).toEqual([
      { type: 'BODY', text: 'May we call you?' },
      { type: 'call_permission_request' },
    ]);
  });

  it("registers a sender from the number's node: online only while Meta reports it CONNECTED, with Meta's quality and limit", async () => {
    const node = (
      status: string,
      display = '+1 555-078-3881',
      reach: object = { quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_10K' },
    ) => ({
      status: 200,
      body: { id: PHONE_NUMBER_ID, display_phone_number: display, verified_name: 'Acme Support', status, ...reach },
    });
    const registered = { providerSenderRef: PHONE_NUMBER_ID, providerAccountRef: WABA_ID };
    stub.answer(
      node('CONNECTED'),
      node('PENDING', undefined, { quality_rating: 'UNKNOWN' }),
      node('CONNECTED', undefined, { quality_rating: 'RED', messaging_limit_tier: 'TIER_UNLIMITED' }),
      node('CONNECTED', '+49 151 1234 5678'),
    );
    expect(await provider().registerSender(sender, 'Acme Support')).toEqual({
      status: 'online',
      ...registered,
      qualityRating: 'YELLOW',
      messagingLimit: 10_000,
    });
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'GET',
        path: `/v21.0/${PHONE_NUMBER_ID}?fields=id,display_phone_number,verified_name,status,quality_rating,messaging_limit_tier`,
        authorization: `Bearer ${TOKEN}`,
      }),
    );
    // A number Meta has not rated or tiered yet starts as a new number does.
    expect(await provider().registerSender(sender, 'Acme Support')).toEqual({
      status: 'offline',
      ...registered,
      qualityRating: 'GREEN',
      messagingLimit: 1000,
    });
    expect(await provider().registerSender(sender, 'Acme Support')).toEqual({
      status: 'online',
      ...registered,
      qualityRating: 'RED',
      messagingLimit: null,
    });
    await expect(provider().registerSender(sender, 'Acme Support')).rejects.toEqual(
      new ChatappProviderRefusal('The phone_number_id belongs to +4915112345678, not +15550783881.'),
    );
    stub.answer({
      status: 401,
      body: {
        error: { message: 'Error validating access token: Session has expired.', type: 'OAuthException', code: 190 },
      },
    });
    await expect(provider().registerSender(sender, 'Acme Support')).rejects.toEqual(
      new ChatappProviderRefusal('Error validating access token: Session has expired.'),
    );
  });

  it("downloads a customer's media through its node and short-lived URL with the sender's token, capped", async () => {
    const fileUrl = `${stub.baseUrl}files/m1`;
    stub.answer(
      { status: 200, body: { url: fileUrl, mime_type: 'image/jpeg', file_size: 15, id: 'm1' } },
      { status: 200, body: { fake: 'jpeg' } },
    );
    const got = await provider().downloadMedia(sender, 'm1', 100);
    expect((await readAll(got.body)).toString()).toBe('{"fake":"jpeg"}');
    expect(got.contentType).toMatch(/^application\/json/);
    expect(stub.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['GET', '/v21.0/m1', `Bearer ${TOKEN}`],
      ['GET', '/files/m1', `Bearer ${TOKEN}`],
    ]);

    // Over the cap as announced by Graph: refused before the file is read; over it while reading: refused too.
    stub.reset();
    stub.answer({ status: 200, body: { url: fileUrl, file_size: 17 * 1024 * 1024 } });
    await expect(provider().downloadMedia(sender, 'm2', 16 * 1024 * 1024)).rejects.toEqual(
      new ChatappProviderRefusal('the file is larger than 16 MB'),
    );
    expect(stub.requests).toHaveLength(1);
    stub.answer({ status: 200, body: { url: fileUrl } }, { status: 200, body: { much: 'x'.repeat(200) } });
    const unannounced = await provider().downloadMedia(sender, 'm3', 100);
    await expect(readAll(unannounced.body)).rejects.toEqual(
      new ChatappProviderRefusal('the file is larger than 16 MB'),
    );
    stub.answer({ status: 400, body: { error: { message: '(#100) Invalid media id', code: 100 } } });
    await expect(provider().downloadMedia(sender, 'm4', 100)).rejects.toEqual(
      new ChatappProviderRefusal('(#100) Invalid media id'),
    );
    stub.answer({ status: 200, body: { url: fileUrl } }, { status: 500, body: {} });
    await expect(provider().downloadMedia(sender, 'm5', 100)).rejects.toThrow('WhatsApp media download answered 500');
    stub.answer({ status: 200, body: { url: fileUrl } }, { status: 200, body: {}, delayMs: 500 });
    const timedOut = await provider(200)
      .downloadMedia(sender, 'm6', 100)
      .then((d) => readAll(d.body))
      .catch((e: Error) => e.message);
    expect(timedOut).toBe('WhatsApp media download timed out');
  });

  it('turns SIP calling on for the number and reads back its SIP password', async () => {
    stub.answer({ status: 200, body: { success: true } });
    await provider().enableSipCalling(sender, 'sip.voiceplane.example');
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'POST',
        path: `/v21.0/${PHONE_NUMBER_ID}/settings`,
        authorization: `Bearer ${TOKEN}`,
      }),
    );
    expect(sentBody()).toEqual({
      calling: {
        status: 'ENABLED',
        srtp_key_exchange_protocol: 'SDES',
        sip: { status: 'ENABLED', servers: [{ hostname: 'sip.voiceplane.example', port: 5061 }] },
      },
    });

    stub.reset();
    const settings = (calling: unknown) => ({ status: 200, body: { calling } });
    stub.answer(
      settings({
        status: 'ENABLED',
        sip: {
          status: 'ENABLED',
          servers: [{ hostname: 'sip.voiceplane.example', port: 5061, sip_user_password: 'meta-issued' }],
        },
      }),
      settings({ status: 'DISABLED' }),
      settings({ status: 'ENABLED', sip: { status: 'DISABLED' } }),
      settings({ status: 'ENABLED', sip: { status: 'ENABLED', servers: [{ hostname: 'sip.voiceplane.example' }] } }),
      { status: 400, body: { error: { message: '(#138018) Calling is not available for this number', code: 138018 } } },
    );
    expect(await provider().readSipCalling(sender)).toEqual({
      enabled: true,
      sipPassword: 'meta-issued',
      reason: null,
    });
    expect(stub.requests[0].path).toBe(`/v21.0/${PHONE_NUMBER_ID}/settings?include_sip_credentials=true`);
    expect(await provider().readSipCalling(sender)).toEqual({
      enabled: false,
      sipPassword: null,
      reason: 'calling is not enabled on the WhatsApp number',
    });
    expect(await provider().readSipCalling(sender)).toEqual({
      enabled: false,
      sipPassword: null,
      reason: 'SIP calling is not enabled on the WhatsApp number',
    });
    expect(await provider().readSipCalling(sender)).toEqual({
      enabled: false,
      sipPassword: null,
      reason: 'WhatsApp issued no SIP password for the number',
    });
    await expect(provider().readSipCalling(sender)).rejects.toEqual(
      new ChatappProviderRefusal('(#138018) Calling is not available for this number'),
    );
  });
});
