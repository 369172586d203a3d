import type { Browser } from 'playwright-core';
import { findChromium } from './chromium';

export const chromiumPath = findChromium(process.env) ?? '';

export const describeWithBrowser: jest.Describe = chromiumPath ? describe : describe.skip;

/** A headless chromium; the caller closes it. Pages must only ever load 127.0.0.1. */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in CI has no user namespace sandbox; the pages are our own, on 127.0.0.1.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--no-proxy-server'],
  });
}
