import { stage } from './startup-timing';
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import pino from 'pino';
import { LOG_OPTIONS, type MessageBus } from '@voiceplane/application';
import { createDataSource, migrate, pendingMigrations } from '@voiceplane/adapter-typeorm';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { RabbitMqMessageBus } from '@voiceplane/adapter-rabbitmq';
import { composeApi, loadConfigOrExit, PRIVATE_TARGETS_WARNING, type ApiRuntime, type Config } from '@voiceplane/composition';
import { DEMO_EMAIL, DemoKey, issueDemoApiKey, seedDemoAccount } from './demo-account';
import { parseStartOptions, START_USAGE } from './start-options';

stage('modules loaded');

/** Said on every embedded start: a printed key is shown once and easily lost. */
const KEY_HINT = 'No key at hand? Run `npm start -- --new-demo-key` for a fresh demo API key.';
const LOST_KEY_HINT = 'Lost it later? `npm start -- --new-demo-key` prints a fresh one.';

/**
 * `npm start`. Without DATABASE_URL: embedded PostgreSQL (PGlite) under VOICEPLANE_DATA_DIR,
 * migrated at start. Without AMQP_URL: in-process bus and workers inside this process.
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
  const logger = pino({ level: config.logLevel, ...LOG_OPTIONS });
  if (config.allowPrivateTargets) logger.warn(PRIVATE_TARGETS_WARNING);

  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    embedded = await startEmbeddedPostgres(join(config.dataDir, 'pg'));
    stage('PGlite opened');
    databaseUrl = embedded.url;
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const dataSource = createDataSource({ url: databaseUrl, poolSize: embedded ? 8 : 20, applicationName: 'voiceplane-api', preparedStatements: !embedded, notificationsAcrossSessions: !embedded });
  await dataSource.initialize();
  stage('data source ready');
  if (embedded || process.env.MIGRATE_ON_START === '1') {
    const applied = await migrate(dataSource);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } else {
    const pending = await pendingMigrations(dataSource);
    if (pending.length > 0) {
      logger.fatal({ pending }, 'database schema is behind: run `node apps/cli/dist/main.js migrate` (or set MIGRATE_ON_START=1)');
      process.exit(3);
    }
  }
  stage('migrations checked');

  const singleProcess = !config.amqpUrl;
  const bus: MessageBus = config.amqpUrl
    ? new RabbitMqMessageBus({ url: config.amqpUrl, logger: logger.child({ component: 'bus' }) })
    : new InProcessMessageBus();
  const runtime = await composeApi(config, { dataSource, logger, bus });
  stage('composed');
  for (const task of runtime.serving) await task.start();
  if (singleProcess) for (const task of runtime.background) await task.start();
  stage('tasks started');

  // A first start already prints a key: --new-demo-key then makes no second one.
  const seeded = await seedDemoAccount(runtime, config);
  const demoKey: DemoKeyOutcome = seeded
    ? { kind: 'seeded', key: seeded }
    : options.value.newDemoKey ? await newDemoKey(runtime) : { kind: 'not_asked' };
  stage('demo seed checked');
  const server: Server = runtime.app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  stage('listening');
  printBanner({ config, port, demoKey, generated: runtime.generatedTokens, adminToken: runtime.adminToken, runtimeToken: runtime.runtimeToken, embedded: !!embedded, singleProcess });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests');
    runtime.startDraining();
    const forced = setTimeout(() => {
      logger.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    if (singleProcess) for (const task of [...runtime.background].reverse()) await task.stop().catch((e) => logger.error({ err: e, task: task.name }, 'task stop failed'));
    for (const task of [...runtime.serving].reverse()) await task.stop().catch((e) => logger.error({ err: e, task: task.name }, 'task stop failed'));
    await bus.close().catch((e) => logger.error({ err: e }, 'bus close failed'));
    await dataSource.destroy();
    if (embedded) await embedded.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

type DemoKeyOutcome = { kind: 'seeded' | 'new'; key: DemoKey } | { kind: 'no_demo_account' | 'not_asked' };

async function newDemoKey(runtime: ApiRuntime): Promise<DemoKeyOutcome> {
  const key = await issueDemoApiKey(runtime);
  return key ? { kind: 'new', key } : { kind: 'no_demo_account' };
}

function printBanner(o: {
  config: Config; port: number; demoKey: DemoKeyOutcome; generated: string[];
  adminToken: string; runtimeToken: string; embedded: boolean; singleProcess: boolean;
}): void {
  const base = `http://${o.config.host === '0.0.0.0' ? '127.0.0.1' : o.config.host}:${o.port}`;
  const lines = [
    '',
    `voiceplane is listening on ${base}  (docs: ${base}/docs)`,
    `  database: ${o.embedded ? `embedded PGlite in ${o.config.dataDir}` : 'DATABASE_URL'}   bus: ${o.singleProcess ? 'in-process (workers run here)' : 'RabbitMQ (run apps/worker)'}`,
  ];
  const demo = o.demoKey;
  const printed = demo.kind === 'seeded' || demo.kind === 'new';
  if (printed) {
    lines.push('', `  Demo account ${demo.key.email} — ${demo.kind === 'new' ? 'new ' : ''}API key (shown once):`, `    ${demo.key.apiKey}`);
    lines.push(`  Try: curl -H "Authorization: Bearer ${demo.key.apiKey}" ${base}/api/user/me`);
  }
  if (demo.kind === 'no_demo_account') lines.push('', `  --new-demo-key: this database has no demo account (${DEMO_EMAIL}); no key was made.`);
  if (o.embedded && printed) lines.push(`  ${LOST_KEY_HINT}`);
  if (o.embedded && !printed) lines.push('', `  ${KEY_HINT}`);
  if (o.generated.includes('admin_token')) lines.push('', '  ADMIN_TOKEN (generated and stored; shown once):', `    ${o.adminToken}`);
  if (o.generated.includes('runtime_token')) lines.push('  RUNTIME_TOKEN (generated and stored; shown once):', `    ${o.runtimeToken}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((e) => {
  process.stderr.write(`voiceplane failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
