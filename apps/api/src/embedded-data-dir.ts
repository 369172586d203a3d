import { resolve } from 'node:path';

/**
 * Where the embedded database lives, or null with DATABASE_URL: the configuration's own rule
 * (`loadConfig`'s `databaseUrl` and `dataDir`), readable before the configuration module loads —
 * class-validator and the domain behind it are a few hundred modules the database thread need not
 * wait for. `embedded-data-dir.spec.ts` holds the two rules together.
 */
export function embeddedDataDir(env: NodeJS.ProcessEnv): string | null {
  if (env.DATABASE_URL?.trim()) return null;
  return resolve(env.VOICEPLANE_DATA_DIR?.trim() || '.data');
}
