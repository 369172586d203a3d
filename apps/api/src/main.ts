import { stage } from './startup-timing';
import { startupCompileCache } from './compile-cache';
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startEmbeddedPostgresThread, type EmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
// The configuration module alone, not the composition's index: the configuration decides whether
// the embedded database opens, and it must be opening before the rest of the api loads (serve.ts).
import { loadConfigOrExit } from '@voiceplane/composition/dist/config';
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
  const config = loadConfigOrExit(process.env);
  let embedded: Promise<EmbeddedPostgres> | null = null;
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    embedded = startEmbeddedPostgresThread(join(config.dataDir, 'pg'));
    // Awaited by serve(); a failure meanwhile must not count as unhandled before then.
    embedded.catch(() => undefined);
  }
  const { serve } = await import('./serve');
  stage('modules loaded');
  await serve({ config, options: options.value, embedded, compileCache: startupCompileCache });
}

main().catch((e) => {
  process.stderr.write(`voiceplane failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
