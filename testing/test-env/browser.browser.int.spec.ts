import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { createTestApi, describeWithBrowser, launchBrowser, type TestApi } from '@voiceplane/test-env';

/** The browser lane itself: chromium starts, loads a page of the composed app and runs its script. */
describeWithBrowser('browser lane', () => {
  let t: TestApi;
  let server: Server;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApi();
    server = createServer(t.runtime.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('renders the API reference page with its script', async () => {
    const page = await browser.newPage();
    const answer = await page.goto(`${base}/docs`);
    expect(answer?.status()).toBe(200);
    await page.waitForSelector('.swagger-ui .info .title', { timeout: 30_000 });
    expect(await page.textContent('.swagger-ui .info .title')).toContain('voiceplane');
    await page.close();
  });
});
