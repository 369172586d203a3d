import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  createTestApi,
  describeWithBrowser,
  eventually,
  launchBrowser,
  listenOnLoopback,
  type TestApi,
  type TestUser,
} from '@voiceplane/test-env';
import { createAssistant, makeCall } from '@voiceplane/stand-ins/calls/fixtures';

/**
 * The console in a real browser against the composed api: the flows a person takes, axe-core on
 * each page, hostile customer text shown as text, another account's ids as "not found". Writes
 * screenshots of the main pages to .jest-results/console/ on every run, and to docs/console/ (the
 * ones the README shows) with CONSOLE_SCREENSHOTS=1.
 */
const ROOT = join(__dirname, '..', '..');
const CONSOLE_DIR = join(ROOT, 'apps', 'console', 'dist');
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'console') : join(ROOT, '.jest-results', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'correct horse battery staple';
const CUSTOMER = '+14155550123';

describeWithBrowser('the console', () => {
  let t: TestApi;
  let server: { baseUrl: string; close(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestUser;
  let stranger: TestUser;
  let assistant: number;
  let sender: number;
  const pageErrors: string[] = [];
  const app = (path: string) => `${server.baseUrl}/app${path}`;

  beforeAll(async () => {
    t = await createTestApi({ config: { consoleDir: CONSOLE_DIR } });
    server = await listenOnLoopback(t.runtime.app);
    owner = await t.createUser({ balance: 50, password: PASSWORD });
    stranger = await t.createUser({ balance: 5 });
    assistant = await createAssistant(t, owner, { name: 'Front desk', type: 'outbound', post_call_evaluation: true });
    await t.http.post(`/api/user/assistant/${assistant}/activate`).set(owner.auth).expect(200);
    const created = await t.http
      .post('/api/user/chatapp/senders')
      .set(owner.auth)
      .send({ phone_number: '+4915299990001', display_name: 'Acme', assistant_id: assistant });
    sender = created.body.data.id;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // Refused requests are logged by the browser too; those are the API's answers, which the tests read on the page.
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
    });
  });
  afterEach(() => {
    // A script error in the page fails the test it happened in, named.
    expect(pageErrors.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await t?.close();
  });

  /** axe-core in the page (evaluated through the protocol: the console's CSP allows no injected script). */
  async function seriousViolations(): Promise<string[]> {
    await page.evaluate(AXE);
    // A string: this runs in the page, whose globals this file's types do not describe.
    return page.evaluate(`axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' ' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')))`) as Promise<string[]>;
  }
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  it('serves the page with a strict CSP and hashed, long-cached assets', async () => {
    const res = await fetch(app('/'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${server.baseUrl}${asset}`);
    expect(js.headers.get('cache-control')).toContain('immutable');
  });

  it('signs in with e-mail and password and lists the assistants', async () => {
    await page.goto(app('/'));
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Front desk' }).waitFor();
    expect(await page.evaluate('[localStorage.length, Object.keys(sessionStorage)]')).toEqual([
      0,
      ['voiceplane.token'],
    ]);
    expect(await seriousViolations()).toEqual([]);
    await shot('assistants');
  });

  it("shows the API's message beside a bad field, then creates the assistant", async () => {
    await page.goto(app('/assistants/new'));
    await page.getByLabel('Name', { exact: true }).fill('Night line');
    await page.getByText('Silence and time limits').click();
    await page.getByLabel('Max duration').fill('99999999');
    await page.getByRole('button', { name: 'Create assistant' }).click();
    const message = page.locator('#max_duration-error');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/max duration/i);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Night line');
    await page.getByLabel('Max duration').fill('600');
    await page.getByRole('button', { name: 'Create assistant' }).click();
    await page.getByRole('heading', { name: 'Night line' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('holds a text call in the try-it pane and shows the values extracted at its end', async () => {
    await page.goto(app(`/assistants/${assistant}`));
    await page.getByRole('button', { name: 'Start a text call' }).click();
    await page.getByLabel('Your words').fill('Hello, I would like to book a table.');
    await page.getByRole('button', { name: 'Say' }).click();
    await page.locator('.dialogue li.assistant').first().waitFor();
    await shot('assistant-editor');
    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.getByRole('article', { name: 'Call ended' }).waitFor();
    expect(await page.getByRole('article', { name: 'Call ended' }).textContent()).toContain('completed');
  });

  it('shows an inbound message in the open inbox without a reload, as text; take over, reply, hand back', async () => {
    // Taking over is open to API keys only: the person signs out and back in with the account's key.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'API key' }).click();
    await page.getByLabel('API key').fill(owner.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const first = await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({ sender_id: sender, from_phone: CUSTOMER, text: 'Hi there', customer_name: 'Ann' });
    await page.goto(app(`/inbox/${first.body.conversation_uuid}`));
    await page.getByRole('heading', { name: 'Ann' }).waitFor();
    await eventually(
      async () => (await page.locator('header small[aria-live]').textContent())?.includes('● live') ?? false,
      'the stream to be live',
    );
    const hostile = '<img src=x onerror="window.__owned=1">';
    await t.http
      .post('/api/sandbox/chatapp/inbound-message')
      .set(owner.auth)
      .send({ sender_id: sender, from_phone: CUSTOMER, text: hostile })
      .expect(200);
    await page.getByText(hostile, { exact: false }).waitFor();
    expect(
      await page.evaluate(
        "({ owned: window.__owned ?? null, images: document.querySelectorAll('.dialogue img').length })",
      ),
    ).toEqual({ owned: null, images: 0 });

    await page.getByRole('button', { name: 'Take over' }).click();
    await page.getByRole('button', { name: 'Hand back to the assistant' }).waitFor();
    await page.getByRole('textbox', { name: 'Reply' }).fill('A person here: how can I help?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('A person here: how can I help?').waitFor();
    expect(await seriousViolations()).toEqual([]);
    await shot('inbox');
    await page.getByRole('button', { name: 'Hand back to the assistant' }).click();
    await page.getByRole('button', { name: 'Take over' }).waitFor();
  });

  it('lists the calls and shows a call as a dialogue', async () => {
    const id = await makeCall(t, owner, assistant);
    await t.http.post(`/api/sandbox/calls/${id}/answer`).set(owner.auth).expect(200);
    await t.http
      .post(`/api/sandbox/calls/${id}/finish`)
      .set(owner.auth)
      .send({
        status: 'completed',
        duration: 42,
        transcript: [
          { role: 'assistant', content: 'Hello, Front desk.' },
          { role: 'customer', content: 'Hi, one question.' },
        ],
      })
      .expect(200);
    await page.goto(app('/calls'));
    await page.getByRole('link', { name: `#${id}` }).click();
    await page.getByText('Hi, one question.').waitFor();
    expect(await seriousViolations()).toEqual([]);
    await shot('call');
  });

  it('shows the calls just made in the analytics', async () => {
    await page.goto(app('/analytics'));
    await page.getByRole('heading', { name: 'Calls per day by outcome' }).waitFor();
    const calls = await page.locator('.figures article').first().textContent();
    expect(Number(calls!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(2);
    expect(await seriousViolations()).toEqual([]);
    await shot('analytics');
  });

  it("shows another account's ids in the URL as not found", async () => {
    const theirs = await createAssistant(t, stranger, { name: 'Not yours' });
    const theirCall = await makeCall(t, stranger, theirs).catch(() => 99_999_999);
    for (const path of [
      `/assistants/${theirs}`,
      `/calls/${theirCall}`,
      '/inbox/00000000-0000-4000-8000-000000000000',
    ]) {
      await page.goto(app(path));
      await page.getByRole('alert').filter({ hasText: 'Not found.' }).waitFor();
      expect(await page.content()).not.toContain('Not yours');
    }
  });

  it('visits the plain pages without serious accessibility violations', async () => {
    for (const [path, heading] of [
      ['/api-keys', 'API keys'],
      ['/knowledge-bases', 'Knowledge bases'],
      ['/numbers', 'Numbers and SIP trunks'],
      ['/deliveries', 'Webhook deliveries'],
      ['/billing', 'Billing'],
      ['/automations', 'Automations'],
    ]) {
      await page.goto(app(path));
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      expect({ path, violations: await seriousViolations() }).toEqual({ path, violations: [] });
    }
  });

  it('signs back in over the page when the session ended, keeping what was typed', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto(app('/api-keys'));
    await page.getByLabel('Name of the new key').fill('typed before the session ended');
    const token = await page.evaluate("sessionStorage.getItem('voiceplane.token')");
    await t.http
      .post('/api/user/logout')
      .set({ Authorization: `Bearer ${token}` })
      .expect(200);
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel('E-mail').fill(owner.email);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Name of the new key').inputValue()).toBe('typed before the session ended');
  });
});
