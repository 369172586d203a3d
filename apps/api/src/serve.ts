import { stage } from './startup-timing';
import type { Server } from 'node:http';
import { join } from 'node:path';
import pino from 'pino';
import { LOG_OPTIONS, type MessageBus } from '@voiceplane/application';
import { createDataSource, migrate, pendingMigrations } from '@voiceplane/adapter-typeorm';
import type { EmbeddedPostgres } from '@voiceplane/adapter-embedded-postgres';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { composeApi, PRIVATE_TARGETS_WARNING, type ApiRuntime, type Config } from '@voiceplane/composition';
import type { CompileCache } from './compile-cache';
import { DEMO_EMAIL, DemoKey, issueDemoApiKey, seedDemoAccount } from './demo-account';
import type { StartOptions } from './start-options';

/** Said on every embedded start: a printed key is shown once and easily lost. */
const KEY_HINT = 'No key at hand? Run `npm start -- --new-demo-key` for a fresh demo API key.';
const LOST_KEY_HINT = 'Lost it later? `npm start -- --new-demo-key` prints a fresh one.';

/** What the entry (main.ts) settled before loading the rest of the api. */
export interface ServeInput {
  readonly config: Config;
  readonly options: StartOptions;
  /** The embedded database being opened on its own thread; null with DATABASE_URL. */
  readonly embedded: Promise<EmbeddedPostgres> | null;
  readonly compileCache: CompileCache | null;
}

/**
 * The api after its configuration: database, migrations, composition, tasks, demo seed, HTTP.
 * Without AMQP_URL: in-process bus and workers inside this process.
 */
export async function serve({ config, options, embedded: opening, compileCache }: ServeInput): Promise<void> {
  const logger = pino({ level: config.logLevel, ...LOG_OPTIONS });
  if (config.allowPrivateTargets) logger.warn(PRIVATE_TARGETS_WARNING);

  let embedded: EmbeddedPostgres | null = null;
  if (opening) {
    embedded = await opening;
    stage('PGlite opened');
    logger.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const databaseUrl = embedded?.url ?? config.databaseUrl;
  if (!databaseUrl) throw new Error('no database: DATABASE_URL is unset and no embedded database was opened');
  const dataSource = createDataSource({
    url: databaseUrl,
    poolSize: embedded ? 8 : 20,
    applicationName: 'voiceplane-api',
    preparedStatements: !embedded,
    notificationsAcrossSessions: !embedded,
  });
  await dataSource.initialize();
  stage('data source ready');
  if (embedded || process.env.MIGRATE_ON_START === '1') {
    const applied = await migrate(dataSource);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  } else {
    const pending = await pendingMigrations(dataSource);
    if (pending.length > 0) {
      logger.fatal(
        { pending },
        'database schema is behind: run `node apps/cli/dist/main.js migrate` (or set MIGRATE_ON_START=1)',
      );
      process.exit(3);
    }
  }
  stage('migrations checked');

  const singleProcess = !config.amqpUrl;
  // amqplib is loaded only when there is a broker to reach: the embedded default never needs it.
  const bus: MessageBus = config.amqpUrl
    ? new (await import('@voiceplane/adapter-rabbitmq')).RabbitMqMessageBus({
        url: config.amqpUrl,
        logger: logger.child({ component: 'bus' }),
      })
    : new InProcessMessageBus();
  // The console built next to the api (`npm start` builds it); served at /app when present.
  const runtime = await composeApi(
    { ...config, consoleDir: config.consoleDir ?? join(__dirname, '..', '..', 'console', 'dist') },
    { dataSource, logger, bus },
  );
  stage('composed');
  for (const task of runtime.serving) await task.start();
  stage('serving tasks started');

  // A first start already prints a key: --new-demo-key then makes no second one.
  const seeded = await seedDemoAccount(runtime, config);
  const demoKey: DemoKeyOutcome = seeded
    ? { kind: 'seeded', key: seeded }
    : options.newDemoKey
      ? await newDemoKey(runtime)
      : { kind: 'not_asked' };
  stage('demo seed checked');
  const server: Server = runtime.app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  stage('listening');
  // The background work (job runner, outbox relay, sweeps) starts once the server listens, as it
  // would in a worker process beside a RabbitMQ api: requests never wait for it, and what they
  // enqueue meanwhile is durable (outbox, scheduled jobs) until it runs. A failure to start it still
  // ends the process, as it did before listening.
  const background = singleProcess ? startBackground(runtime.background) : Promise.resolve();
  background.then(
    () => stage('background started'),
    (e) => {
      process.stderr.write(`voiceplane failed to start: ${(e as Error).stack ?? e}\n`);
      process.exit(1);
    },
  );
  // After the start, so that writing it never delays one; the next start compiles less.
  compileCache?.save();
  printBanner({
    config,
    port,
    demoKey,
    generated: runtime.generatedTokens,
    adminToken: runtime.adminToken,
    runtimeToken: runtime.runtimeToken,
    embedded: !!embedded,
    singleProcess,
  });

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
    // A stop during the background start waits for it, so that every task started is stopped.
    await background.catch(() => undefined);
    if (singleProcess)
      for (const task of [...runtime.background].reverse())
        await task.stop().catch((e) => logger.error({ err: e, task: task.name }, 'task stop failed'));
    for (const task of [...runtime.serving].reverse())
      await task.stop().catch((e) => logger.error({ err: e, task: task.name }, 'task stop failed'));
    await bus.close().catch((e) => logger.error({ err: e }, 'bus close failed'));
    await dataSource.destroy();
    if (embedded) await embedded.stop();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

async function startBackground(tasks: ApiRuntime['background']): Promise<void> {
  for (const task of tasks) await task.start();
}

type DemoKeyOutcome = { kind: 'seeded' | 'new'; key: DemoKey } | { kind: 'no_demo_account' | 'not_asked' };

async function newDemoKey(runtime: ApiRuntime): Promise<DemoKeyOutcome> {
  const key = await issueDemoApiKey(runtime);
  return key ? { kind: 'new', key } : { kind: 'no_demo_account' };
}

function printBanner(o: {
  config: Config;
  port: number;
  demoKey: DemoKeyOutcome;
  generated: string[];
  adminToken: string;
  runtimeToken: string;
  embedded: boolean;
  singleProcess: boolean;
}): void {
  const base = `http://${o.config.host === '0.0.0.0' ? '127.0.0.1' : o.config.host}:${o.port}`;
  const lines = [
    '',
    `voiceplane is listening on ${base}  (console: ${base}/app, docs: ${base}/docs)`,
    `  database: ${o.embedded ? `embedded PGlite in ${o.config.dataDir}` : 'DATABASE_URL'}   bus: ${o.singleProcess ? 'in-process (workers run here)' : 'RabbitMQ (run apps/worker)'}`,
  ];
  const demo = o.demoKey;
  const printed = demo.kind === 'seeded' || demo.kind === 'new';
  if (printed) {
    lines.push(
      '',
      `  Demo account ${demo.key.email} — ${demo.kind === 'new' ? 'new ' : ''}API key (shown once):`,
      `    ${demo.key.apiKey}`,
    );
    lines.push(`  Try: curl -H "Authorization: Bearer ${demo.key.apiKey}" ${base}/api/user/me`);
    if (demo.key.generatedPassword)
      lines.push(
        `  Console: ${base}/app — sign in as ${demo.key.email} with the password (shown once): ${demo.key.generatedPassword}`,
      );
    else if (o.config.demoPassword)
      lines.push(`  Console: ${base}/app — sign in as ${demo.key.email} with DEMO_PASSWORD`);
  }
  if (demo.kind === 'no_demo_account')
    lines.push('', `  --new-demo-key: this database has no demo account (${DEMO_EMAIL}); no key was made.`);
  if (o.embedded && printed) lines.push(`  ${LOST_KEY_HINT}`);
  if (o.embedded && !printed) lines.push('', `  ${KEY_HINT}`);
  if (o.generated.includes('admin_token'))
    lines.push('', '  ADMIN_TOKEN (generated and stored; shown once):', `    ${o.adminToken}`);
  if (o.generated.includes('runtime_token'))
    lines.push('  RUNTIME_TOKEN (generated and stored; shown once):', `    ${o.runtimeToken}`);
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
