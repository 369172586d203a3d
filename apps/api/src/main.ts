import { stage } from './startup-timing';
import { startupCompileCache } from './compile-cache';
import { installLazySourceMaps } from './lazy-source-maps';
import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedPostgresThread, type EmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
import { embeddedDataDir } from './embedded-data-dir';
import { parseStartOptions, START_USAGE } from './start-options';

/**
 * `npm start`. Without DATABASE_URL: embedded PostgreSQL (PGlite) under VOICEPLANE_DATA_DIR,
 * migrated at start. Loads only what decides how to start; the database thread then opens while
 * this thread loads the rest of the api.
 */
async function main(): Promise<void> {
  const options = parseStartOptions(process.argv.slice(2));
  if (!options.ok) {
    process.stderr.write(`voiceplane: ${options.error}\n${START_USAGE}\n`);
    process.exit(2);
  }
  if (options.value.help) {
    process.stdout.write(`${START_USAGE}\n`);
    process.exit(0);
  }
  // A restart opens its existing database before even the configuration loads (class-validator and
  // the domain, a few hundred modules). A first start waits for the configuration to be valid, so a
  // mistyped setting never leaves a half-initialised database directory behind.
  const early = embeddedDataDir(process.env);
  let embedded = early && existsSync(join(early, 'pg', 'PG_VERSION')) ? openEmbedded(early) : null;
  // The configuration module alone, not the composition's index (that is most of the api, serve.ts).
  const { loadConfig, ConfigError } = await import('@voiceplane/composition/dist/config');
  let config;
  try {
    config = loadConfig(process.env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    // Closed as on any stop rather than cut off mid-open by the exit.
    await embedded?.then((db) => db.stop()).catch(() => undefined);
    process.exit(2);
  }
  if (!config.databaseUrl && !embedded) embedded = openEmbedded(config.dataDir);
  const { serve } = await import('./serve');
  stage('modules loaded');
  await serve({ config, options: options.value, embedded, compileCache: startupCompileCache });
}

installLazySourceMaps();

function openEmbedded(dataDir: string): Promise<EmbeddedPostgres> {
  mkdirSync(dataDir, { recursive: true });
  const opening = startEmbeddedPostgresThread(join(dataDir, 'pg'));
  // Awaited by serve(); a failure meanwhile must not count as unhandled before then.
  opening.catch(() => undefined);
  return opening;
}

main().catch((e) => {
  process.stderr.write(`voiceplane failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
