import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  createTestApi,
  describeWithBrowser,
  eventually,
  launchBrowser,
  type TestApi,
  type TestUser,
} from '@voiceplane/test-env';
import { RecordingStub, StubAnswer } from '@voiceplane/stand-ins/stubs/recording-stub';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The widget as a visitor uses it: a page on 127.0.0.1 embeds `/widget.js` from the api (another
 * origin), the visitor chats, the assistant's tool runs, a human takes over and the visitor sees
 * the human's reply. Hostile input stays text; a page on an origin the owner did not allow gets no chat.
 */

type Browser = Awaited<ReturnType<typeof launchBrowser>>;
type Page = Awaited<ReturnType<Browser['newPage']>>;

const SHOTS = join(__dirname, '../../../../../.jest-results/widget');

const completion = (message: Record<string, unknown>): StubAnswer => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }],
  },
});
const says = (content: string) => completion({ content });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
/** A streamed answer as OpenAI sends it: the text a few words a chunk, `gapMs` apart. */
const streams = (words: string[], gapMs = 120): StubAnswer => ({
  status: 200,
  gapMs,
  events: [...words.map((content) => chunk({ content })), chunk({}, 'stop'), '[DONE]'],
});
/** Every text the widget's draft bubble showed, recorded in the page as it changed. */
const RECORD_DRAFTS = `(() => {
  const root = document.querySelector('[data-voiceplane-widget]').shadowRoot;
  window.__drafts = [];
  new MutationObserver(() => {
    const draft = root.querySelector('.m.draft');
    const text = draft && draft.textContent;
    if (text && window.__drafts[window.__drafts.length - 1] !== text) window.__drafts.push(text);
  }).observe(root, { subtree: true, childList: true, characterData: true });
})()`;

/** A shop's page that embeds the widget (`embed()` is read per request): served from its own port, so its origin is its own. */
async function hostPage(embed: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html><head><title>Shop</title></head><body><h1>Acme Shop</h1><p>Welcome.</p>${embed()}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describeWithBrowser('the web widget in a browser', () => {
  let t: TestApi;
  let api: Server;
  let base: string;
  let model: RecordingStub;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let owner: TestUser;
  let allowed: { server: Server; origin: string };
  let refused: { server: Server; origin: string };

  beforeAll(async () => {
    model = await RecordingStub.start({ status: 500, body: { error: { message: 'nothing scripted' } } });
    receiver = await WebhookReceiver.start(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"shipped","eta":"Friday"}',
    }));
    // The outbox relay runs: the widget's stream is fed by the bus.
    t = await createTestApi({
      env: { REPLY_GENERATOR: 'openai', OPENAI_API_KEY: 'sk-test-widget', OPENAI_BASE_URL: `${model.baseUrl}v1` },
    });
    api = createServer(t.runtime.app);
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    owner = await t.createUser({ balance: 10 });
    const tool = (
      await t.http
        .post('/api/user/tools')
        .set(owner.auth)
        .send({
          name: 'check_order',
          description: 'Look up an order',
          method: 'GET',
          timeout: 2,
          endpoint: receiver.url('/orders/{order_id}'),
          schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
        })
    ).body.data.id;
    const assistant = await createAssistant(t, owner, {
      initial_message: 'Hi! Ask me about your order.',
      tool_ids: [tool],
    });
    let embed = '';
    allowed = await hostPage(() => embed);
    refused = await hostPage(() => embed);
    const widget = await t.http
      .put(`/api/user/assistant/${assistant}/widget`)
      .set(owner.auth)
      .send({ enabled: true, allowed_origins: [allowed.origin] });
    embed = `<script src="${base}/widget.js" data-widget-key="${widget.body.data.widget_key}" data-title="Acme support" async></script>`;
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of [api, allowed?.server, refused?.server])
      await new Promise((resolve) => server?.close(resolve));
    await t?.close();
    await model?.close();
    await receiver?.close();
  });
  beforeEach(() => model.reset());

  const widget = (page: Page) => page.locator('[data-voiceplane-widget]');
  const bubbles = async (page: Page) => widget(page).locator('.m').allTextContents();
  const type = async (page: Page, text: string) => {
    await widget(page).locator('textarea').fill(text);
    await widget(page).locator('form button').click();
  };

  it('a visitor chats, a tool runs, a human takes over and the visitor sees the reply; hostile text stays text; no account key on the page', async () => {
    const page = await browser.newPage();
    const requests: { url: string; authorization: string | undefined }[] = [];
    page.on('request', (r: { url(): string; headers(): Record<string, string> }) =>
      requests.push({ url: r.url(), authorization: r.headers().authorization }),
    );
    await page.goto(allowed.origin);
    await widget(page).locator('button.b').click();
    await eventually(async () => (await bubbles(page)).includes('Hi! Ask me about your order.'), 'the greeting');

    // The model calls the tool (streamed in pieces too), then streams its answer a few words at a time.
    const reply = 'Order A-1 ships Friday from our Berlin warehouse.';
    model.answer(
      {
        status: 200,
        events: [
          chunk({
            role: 'assistant',
            tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'check_order', arguments: '' } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"order_id":"A-1"}' } }] }),
          chunk({}, 'tool_calls'),
          '[DONE]',
        ],
      },
      streams(['Order A-1', ' ships Friday', ' from our', ' Berlin', ' warehouse.']),
    );
    await page.evaluate(RECORD_DRAFTS);
    await type(page, 'Where is order A-1?');
    await eventually(async () => (await page.evaluate<number>('window.__drafts.length')) >= 2, 'the reply growing');
    await page.screenshot({ path: join(SHOTS, 'widget-streaming.png') });
    // The whole text shows in the draft first; the stored reply then takes its place.
    await eventually(
      async () => (await bubbles(page)).includes(reply) && (await widget(page).locator('.m.draft').count()) === 0,
      "the assistant's stored reply",
    );
    const drafts = await page.evaluate<string[]>('window.__drafts');
    // At least two renders before the whole reply, each a longer beginning of it.
    const partial = drafts.filter((d) => d !== reply);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    for (const [i, d] of partial.entries()) {
      expect(reply.startsWith(d)).toBe(true);
      if (i > 0) expect(d.length).toBeGreaterThan(partial[i - 1].length);
    }
    expect((await bubbles(page)).filter((b) => b === reply)).toHaveLength(1);
    expect(receiver.received.map((r) => r.path)).toContain('/orders/A-1');

    model.answer(says('<script>window.__pwned = 2</script><b>bold</b>'));
    await type(page, '<img src=x onerror="window.__pwned = 1">');
    await eventually(
      async () => (await bubbles(page)).includes('<script>window.__pwned = 2</script><b>bold</b>'),
      'the hostile reply as text',
    );
    expect(await bubbles(page)).toContain('<img src=x onerror="window.__pwned = 1">');
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await widget(page).locator('img, b, script').count()).toBe(0);

    // A human takes over through the account's conversation routes.
    const uuid = JSON.parse(
      await page.evaluate<string>("Object.entries(localStorage).find(([k]) => k.startsWith('voiceplane-widget:'))[1]"),
    ).id;
    await t.http.post(`/api/automate/conversations/${uuid}/disable-ai`).set(owner.auth).expect(200);
    const asked = model.requests.length;
    await type(page, 'Can I talk to a person?');
    await eventually(async () => (await bubbles(page)).includes('Can I talk to a person?'), "the visitor's message");
    await t.http
      .post(`/api/user/conversations/${uuid}/messages`)
      .set(owner.auth)
      .send({ message: 'Hi, this is Ann from Acme. Happy to help!' })
      .expect(200);
    await eventually(
      async () => (await bubbles(page)).includes('Hi, this is Ann from Acme. Happy to help!'),
      "the human's reply, live",
    );
    expect(model.requests).toHaveLength(asked);
    await page.screenshot({ path: join(SHOTS, 'widget-chat.png') });
    // Live, not polled: the page opened one event stream and never read the history again.
    const chatRequests = requests.filter((r) => r.url.includes(`/conversations/${uuid}`));
    expect(chatRequests.filter((r) => r.url.includes('/events'))).toHaveLength(1);
    expect(chatRequests.filter((r) => !r.url.includes('/events') && !r.url.endsWith('/messages'))).toEqual([]);

    // Nothing the page holds or sends is the account's key.
    const held = await page.evaluate<string>(
      'document.documentElement.outerHTML + JSON.stringify({ ...localStorage }) + document.cookie',
    );
    expect(held).not.toContain(owner.token);
    expect(requests.filter((r) => r.authorization !== undefined || r.url.includes(owner.token))).toEqual([]);
    expect(requests.some((r) => r.url.includes('/api/user/'))).toBe(false);
    await page.close();
  });

  it('a page on an origin the owner did not allow gets no chat', async () => {
    const page = await browser.newPage();
    await page.goto(refused.origin);
    await widget(page).locator('button.b').click();
    await eventually(
      async () => (await bubbles(page)).includes('This website may not use this chat widget.'),
      'the refusal',
    );
    expect(await page.evaluate('Object.keys(localStorage).length')).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'widget-refused.png') });
    await page.close();
  });
});
