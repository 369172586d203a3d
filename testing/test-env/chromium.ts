import { existsSync } from 'node:fs';

/**
 * Browser suites drive Debian's chromium through playwright-core (no browser download: these machines
 * reach only the package registries). Global setup resolves the binary once and hands it to the test
 * files as CHROMIUM_PATH; without one the suites are skipped loudly, and REQUIRE_INTEGRATION=1 makes
 * that a failure, as for RabbitMQ.
 */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(env: NodeJS.ProcessEnv): string | null {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}
