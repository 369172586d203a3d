import { spawnSync } from 'node:child_process';
import { Database, PostgresNotifications } from '@voiceplane/adapter-typeorm';
import { currentCreator, createScratchDatabase, onServer } from './scratch-database';
import { dropStaleScratchDatabases } from './stale-scratch-databases';

/** The test environment's own promises: a killed run's databases are swept, a kept connection cannot hang a close. */

const serverUrl = process.env.DATABASE_URL;
const onRealServer = serverUrl ? it : it.skip;

const exists = async (name: string) =>
  (await onServer(serverUrl!, [`SELECT 1 FROM pg_database WHERE datname = '${name}'`]))[0].length === 1;

async function bareDatabase(name: string, creator: object): Promise<void> {
  await onServer(serverUrl!, [
    `CREATE DATABASE ${name}`,
    `COMMENT ON DATABASE ${name} IS '${JSON.stringify(creator)}'`,
  ]);
}

describe('scratch databases', () => {
  onRealServer('the sweep drops a database whose creator was killed, and leaves those of live runs', async () => {
    const suffix = `${process.pid}_${Date.now()}`;
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    const killed = `vp_test_sweep_killed_${suffix}`;
    const live = `vp_test_sweep_live_${suffix}`;
    const used = `vp_test_sweep_used_${suffix}`;
    await bareDatabase(killed, { ...currentCreator(), pid: gone });
    await bareDatabase(live, currentCreator());
    await bareDatabase(used, { ...currentCreator(), pid: gone });
    const url = new URL(serverUrl!);
    url.pathname = `/${used}`;
    const { Client } = await import('pg');
    const session = new Client({ connectionString: url.toString() });
    await session.connect();
    try {
      const dropped = await dropStaleScratchDatabases(serverUrl!);
      expect(dropped).toContain(`${killed} (its creator (process ${gone}) is gone)`);
      expect(await exists(killed)).toBe(false);
      expect(await exists(live)).toBe(true);
      expect(await exists(used)).toBe(true);
    } finally {
      await session.end();
      await onServer(
        serverUrl!,
        [killed, live, used].map((name) => `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    }
  });

  onRealServer(
    'a close with a connection still checked out fails saying so, ends it and drops the database',
    async () => {
      const db = await createScratchDatabase({ serverUrl, poolSize: 2, prefix: 'vp_test', closeCeilingMs: 1_000 });
      const name = new URL(db.url).pathname.slice(1);
      // A LISTEN connection never stopped: the failure that once kept a whole run from exiting.
      const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
      await new PostgresNotifications(
        new Database(db.dataSource),
        { vp_jobs: { ring: () => undefined } },
        silent,
      ).start();
      await expect(db.close()).rejects.toThrow(
        `timed out after 1000 ms waiting for the connections of ${name} to be handed back: a test kept a connection checked out`,
      );
      expect(await exists(name)).toBe(false);
    },
  );
});
