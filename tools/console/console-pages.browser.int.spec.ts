import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  createTestApi,
  describeWithBrowser,
  eventually,
  launchBrowser,
  listenOnLoopback,
  type TestApi,
  type TestUser,
} from '@voiceplane/test-env';
import { WebhookReceiver } from '@voiceplane/stand-ins/fault/webhook-receiver';
import { createAssistant, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The console's resource pages in a real browser, used as a person uses them: a tool created (its
 * bad endpoint's message beside the field), rendered, tested and picked for an assistant; a file
 * and a website added to a knowledge base and followed to ready / failed with the reason; a number
 * bought, assigned and released; auto-recharge with the API's messages beside its fields; a
 * template applied, the automation disabled, enabled and restored; a sandbox recording played.
 * axe-core on each page; screenshots as in console.browser.int.spec.ts.
 */
const ROOT = join(__dirname, '..', '..');
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'console') : join(ROOT, '.jest-results', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

describeWithBrowser('the console, page by page', () => {
  let t: TestApi;
  let server: { baseUrl: string; close(): Promise<void> };
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let owner: TestUser;
  let assistant: number;
  const pageErrors: string[] = [];
  const app = (path: string) => `${server.baseUrl}/app${path}`;
  const api = <T = Record<string, unknown>>(path: string) =>
    t.http
      .get(path)
      .set(owner.auth)
      .then((r) => r.body as T);

  beforeAll(async () => {
    t = await createTestApi({ config: { consoleDir: join(ROOT, 'apps', 'console', 'dist') } });
    server = await listenOnLoopback(t.runtime.app);
    receiver = await WebhookReceiver.start((req) =>
      req.path.startsWith('/orders/')
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{"order":"A-1","state":"shipped"}' }
        : req.path === '/gone'
          ? { status: 404, body: 'no such page' }
          : { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
    );
    owner = await t.createUser({ balance: 50 });
    assistant = await createAssistant(t, owner, { name: 'Front desk', record: true });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
    });
    await page.goto(app('/'));
    await page.getByRole('button', { name: 'API key' }).click();
    await page.getByLabel('API key').fill(owner.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
  afterEach(() => expect(pageErrors.splice(0)).toEqual([]));
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
    await t?.close();
  });

  async function seriousViolations(): Promise<string[]> {
    await page.evaluate(AXE);
    return page.evaluate(`axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))`) as Promise<string[]>;
  }
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  it('creates a tool (the bad endpoint answered beside its field), renders and tests it, and attaches it by name', async () => {
    await page.goto(app('/tools'));
    await page.getByRole('button', { name: 'New tool' }).click();
    await page.getByLabel(/^Name/).fill('lookup_order');
    await page.getByLabel(/^Description/).fill('Looks up an order by its number.');
    await page.getByLabel('Endpoint').fill('not a url');
    await page.getByLabel('Method').selectOption('GET');
    await page
      .getByLabel('Parameters (JSON)')
      .fill('[{"name":"order_id","type":"string","description":"The order number","required":true}]');
    await page.getByRole('button', { name: 'Create tool' }).click();
    await page.locator('#endpoint-error').waitFor();
    expect(await page.locator('#endpoint-error').textContent()).toBe('The endpoint must be a valid URL.');
    await page.getByLabel('Endpoint').fill(receiver.url('/orders/{order_id}'));
    await page.getByRole('button', { name: 'Create tool' }).click();
    await page.getByRole('heading', { name: 'lookup_order' }).waitFor();
    const tool = (await api<{ id: number; name: string }[]>('/api/user/tools')).find((x) => x.name === 'lookup_order')!;

    await page.getByLabel('Arguments (JSON)').fill('{"order_id":"A-1"}');
    await page.getByRole('button', { name: 'Render request' }).click();
    const rendered = page.getByRole('region', { name: 'The request it would send' });
    await rendered.waitFor();
    expect(await rendered.textContent()).toContain(receiver.url('/orders/A-1'));
    expect(receiver.received).toHaveLength(0);
    await page.getByRole('button', { name: 'Send a test request' }).click();
    const tested = page.getByRole('region', { name: 'The test request and its answer' });
    await tested.waitFor();
    expect(await tested.textContent()).toContain('shipped');
    expect(receiver.received.map((r) => r.path)).toEqual(['/orders/A-1']);
    expect(await seriousViolations()).toEqual([]);
    await shot('tool');

    await page.goto(app(`/assistants/${assistant}`));
    await page.locator('summary', { hasText: /^Tools$/ }).click();
    await page.getByRole('checkbox', { name: /lookup_order/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api<{ data: { tool_ids: number[] } }>(`/api/user/assistant/${assistant}`)).data.tool_ids).toEqual([
      tool.id,
    ]);
  });

  it('adds a file and a website to a knowledge base and shows each reading end: ready, or failed with the reason', async () => {
    await page.goto(app('/knowledge-bases'));
    await page.getByLabel('Name').fill('Price list');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('summary', { hasText: 'Price list' }).click();
    await page.getByLabel('Document name').fill('Prices');
    await page.getByLabel(/^File/).setInputFiles({
      name: 'prices.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('A haircut costs 30 euros. A shave costs 15 euros.\n'),
    });
    await page.getByRole('button', { name: 'Add document' }).click();
    await page.getByRole('cell', { name: 'prices.txt' }).waitFor();
    await page.getByRole('cell', { name: /^ready/ }).waitFor();

    await page.getByRole('button', { name: 'A website' }).click();
    await page.getByLabel('Document name').fill('Old site');
    await page.getByLabel('Website address').fill(receiver.url('/gone'));
    await page.getByRole('button', { name: 'Add document' }).click();
    const failed = page.getByRole('row', { name: /Old site/ });
    await failed.getByText(/^failed/).waitFor();
    expect(await failed.textContent()).toContain('could not be read (404)');
    expect(await seriousViolations()).toEqual([]);
    await shot('knowledge-bases');
  });

  it('searches and buys a number, assigns it to an assistant and releases it', async () => {
    const offers = (
      await api<{ data: { phone_number: string; address_requirements: string }[] }>(
        '/api/user/phone-numbers/search?country_code=US',
      )
    ).data;
    const phone = offers.find((o) => o.address_requirements === 'none')!.phone_number;
    await page.goto(app('/numbers'));
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: `Buy ${phone}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Bought ${phone}.` })
      .waitFor();
    const picker = page.getByLabel(`Assistant on ${phone}`);
    await picker.selectOption({ label: 'Front desk' });
    const [owned] = (await api<{ data: { id: number; phone_number: string }[] }>('/api/user/phone-numbers')).data;
    await eventually(
      async () =>
        (await api<{ data: { phone_number_id: number } }>(`/api/user/assistant/${assistant}`)).data.phone_number_id ===
        owned.id,
      'the number to be on the assistant',
    );
    expect(await seriousViolations()).toEqual([]);
    await shot('numbers');
    await page.getByRole('button', { name: `Release ${phone}` }).click();
    await picker.waitFor({ state: 'detached' });
    expect((await api<{ data: unknown[] }>('/api/user/phone-numbers')).data).toEqual([]);
  });

  it("edits auto-recharge, with the API's messages beside the fields", async () => {
    await page.goto(app('/billing'));
    await page.getByLabel('When the balance falls below (USD)').fill('1000.5');
    await page.getByLabel('Recharge amount (USD)').fill('4.123');
    await page.getByRole('button', { name: 'Save auto-recharge' }).click();
    await page.locator('#threshold-error').waitFor();
    expect(await page.locator('#threshold-error').textContent()).toBe('The threshold must be between 0 and 1000.');
    expect(await page.locator('#amount-error').allTextContents()).toContain('The amount must be between 5 and 10000.');
    await page.getByLabel('When the balance falls below (USD)').fill('10');
    await page.getByLabel('Recharge amount (USD)').fill('25');
    await page.getByRole('switch', { name: 'Recharge automatically' }).check();
    await page.getByRole('button', { name: 'Save auto-recharge' }).click();
    await page.getByRole('status').filter({ hasText: 'Auto-recharge saved.' }).waitFor();
    expect((await api<{ data: unknown }>('/api/user/billing/auto-recharge')).data).toEqual(
      expect.objectContaining({ enabled: true, threshold: 10, amount: 25 }),
    );
    expect(await seriousViolations()).toEqual([]);
  });

  it('applies a template, disables and enables the automation, and restores its previous version', async () => {
    const template = (
      await api<{ data: { name: string; params: { key: string; label: string }[] } }>(
        '/api/user/automate/templates/post_call_webhook_forward',
      )
    ).data;
    const url = template.params.find((p) => p.key === 'url')!.label;
    await page.goto(app('/automations'));
    await page.getByText(template.name, { exact: true }).click();
    const form = page.getByRole('form', { name: `Apply ${template.name}` });
    await form.getByLabel('Assistant').selectOption({ label: 'Front desk' });
    await form.getByLabel(url).fill('ftp://x');
    await form.getByRole('button', { name: `Apply ${template.name}` }).click();
    await form.locator('#url-error').waitFor();
    await form.getByLabel(url).fill(receiver.url('/forward'));
    await form.getByRole('button', { name: `Apply ${template.name}` }).click();
    await form.getByRole('status').waitFor();
    const [flow] = (await api<{ data: { id: string; name: string }[] }>('/api/user/automate/flows')).data;

    const flowItem = page.locator('details.flow', { hasText: flow.name });
    await flowItem.locator('> summary').click();
    await flowItem.getByRole('button', { name: `Disable ${flow.name}` }).click();
    await flowItem.getByRole('button', { name: `Enable ${flow.name}` }).waitFor();
    expect((await api<{ data: { status: string } }>(`/api/user/automate/flows/${flow.id}`)).data.status).toBe(
      'disabled',
    );
    await flowItem.getByRole('button', { name: `Enable ${flow.name}` }).click();
    await flowItem.getByRole('button', { name: `Disable ${flow.name}` }).waitFor();

    // A second version, as an update from any client makes one; the page then restores the first.
    const updated = await t.http
      .put(`/api/user/automate/flows/${flow.id}`)
      .set(owner.auth)
      .send({ params: { url: receiver.url('/forward-v2') } });
    expect(updated.status).toBe(200);
    await page.reload();
    await flowItem.locator('> summary').click();
    await page.getByRole('button', { name: 'Restore the previous version' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /is live again/ })
      .waitFor();
    const versions = (
      await api<{ data: { number: number; is_live: boolean; params: { url: string } }[] }>(
        `/api/user/automate/flows/${flow.id}/versions`,
      )
    ).data;
    expect(versions.find((v) => v.is_live)?.params.url).toBe(receiver.url('/forward'));
    await page
      .getByRole('cell', { name: /restored from/ })
      .first()
      .waitFor();
    expect(await seriousViolations()).toEqual([]);
    await shot('automations');
  });

  it("plays a sandbox call's recording, and the analytics name why the calls ended", async () => {
    const id = await makeCall(t, owner, assistant);
    await t.http.post(`/api/sandbox/calls/${id}/finish`).set(owner.auth).send({ status: 'completed' }).expect(200);
    await page.goto(app(`/calls/${id}`));
    const audio = page.locator('audio[aria-label="Call recording"]');
    await audio.waitFor();
    // Muted, so chromium lets it play without a gesture; it must load, know its length and move on.
    // A string: this runs in the page, whose globals this file's types do not describe.
    const played = await page.evaluate(`(async () => {
      const el = document.querySelector('audio[aria-label="Call recording"]');
      el.muted = true;
      if (el.readyState < 1) await new Promise((resolve) => el.addEventListener('loadedmetadata', resolve));
      await el.play();
      // Playback starts after the output device opens (a second or more on a loaded machine).
      const started = Date.now();
      while (el.currentTime === 0 && Date.now() - started < 10000) await new Promise((r) => setTimeout(r, 50));
      return { duration: el.duration, moved: el.currentTime > 0, error: el.error ? el.error.code : null };
    })()`);
    expect(played).toEqual({ duration: 2, moved: true, error: null });

    await page.goto(app('/analytics'));
    await page.getByRole('heading', { name: 'Top ended reasons' }).waitFor();
    await page.getByRole('cell', { name: 'customer_hangup' }).waitFor();
  });
});
