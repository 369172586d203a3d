import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Pool } from 'pg';

/**
 * Runs a bare baseline as its own process, as `startBareProcess` expects: a pool of 20 on
 * DATABASE_URL, the app on an ephemeral port whose URL is the first line on stdout, and a clean
 * stop on SIGTERM.
 */
export function serveBareProcess(appOf: (pool: Pool) => Express): void {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  const server = appOf(pool).listen(0, '127.0.0.1', () => {
    process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void pool.end().then(() => process.exit(0)));
  });
}
