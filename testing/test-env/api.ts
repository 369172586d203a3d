import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import supertest from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { InProcessMessageBus } from '@voiceplane/adapter-local-bus';
import { LOG_OPTIONS, type MessageBus } from '@voiceplane/application';
import { composeApi, loadConfig, type ApiRuntime, type Config } from '@voiceplane/composition';
import { createTestDatabase, TestDatabase } from './database';
import { SuccessExampleObserver } from './success-examples';

export interface TestUser {
  readonly id: number;
  readonly email: string;
  /** The user's default API key. */
  readonly token: string;
  readonly auth: { Authorization: string };
}

export interface TestApi {
  readonly runtime: ApiRuntime;
  readonly db: TestDatabase;
  readonly http: TestAgent;
  readonly admin: { Authorization: string };
  readonly runtimeAuth: { Authorization: string };
  /** A fresh account through the admin API (balance and plan optional). */
  createUser(options?: { balance?: number; plan?: Record<string, unknown>; password?: string }): Promise<TestUser>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * The composed application (every module, sandbox providers) on its own fresh database, driven
 * through supertest. Background workers are started unless `startBackground: false`.
 */
export async function createTestApi(
  options: {
    config?: Partial<Config>;
    env?: NodeJS.ProcessEnv;
    startBackground?: boolean;
    db?: TestDatabase;
    /** Where log lines go (at level `error` and above when given); silent otherwise unless TEST_LOG_LEVEL. */
    logTo?: NodeJS.WritableStream;
    /** The level written to `logTo` when a test reads lower levels (the request log, debug refusals). */
    logLevel?: pino.Level;
    /** The bus (e.g. RabbitMQ, to compose several api instances on one broker); an in-process bus otherwise. Closed with the api. */
    bus?: MessageBus;
  } = {},
): Promise<TestApi> {
  const db = options.db ?? (await createTestDatabase());
  const loaded = loadConfig({ ...options.env });
  // Inbound media lands in a scratch directory of this app, never in the checkout's data directory.
  const mediaDir =
    loaded.mediaStore.kind === 'files' && options.config?.mediaStore === undefined
      ? mkdtempSync(join(tmpdir(), 'vp-test-media-'))
      : null;
  const config: Config = {
    ...loaded,
    allowPrivateTargets: true,
    logLevel: 'silent',
    ...(mediaDir === null ? {} : { mediaStore: { kind: 'files', dir: mediaDir } }),
    ...options.config,
  };
  const level = options.logTo ? (options.logLevel ?? 'error') : (process.env.TEST_LOG_LEVEL ?? 'silent');
  const logger = options.logTo ? pino({ level, ...LOG_OPTIONS }, options.logTo) : pino({ level, ...LOG_OPTIONS });
  const bus = options.bus ?? new InProcessMessageBus();
  const composed = await composeApi(config, { dataSource: db.dataSource, logger, bus });
  const examples = new SuccessExampleObserver(composed.container);
  // Suites that serve the app themselves (an http server, `app.listen`) are observed like the supertest agent.
  const runtime: ApiRuntime = { ...composed, app: examples.observedApp(composed.app) };
  for (const task of runtime.serving) await task.start();
  const startBackground = options.startBackground ?? true;
  if (startBackground) for (const task of runtime.background) await task.start();
  const http = supertest(runtime.app);
  const admin = { Authorization: `Bearer ${runtime.adminToken}` };
  return {
    runtime,
    db,
    http,
    admin,
    runtimeAuth: { Authorization: `Bearer ${runtime.runtimeToken}` },
    async createUser(o = {}) {
      counter += 1;
      const email = `user${counter}.${process.pid}.${Date.now()}@example.test`;
      const res = await http
        .post('/api/admin/users')
        .set(admin)
        .send({ name: `User ${counter}`, email, balance: o.balance ?? 25, plan: o.plan, password: o.password });
      if (res.status !== 201) throw new Error(`createUser failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.api_key.token as string;
      return { id: res.body.user.id, email, token, auth: { Authorization: `Bearer ${token}` } };
    },
    async close() {
      if (startBackground) for (const task of [...runtime.background].reverse()) await task.stop();
      for (const task of [...runtime.serving].reverse()) await task.stop();
      await bus.close();
      if (!options.db) await db.close();
      if (mediaDir !== null) rmSync(mediaDir, { recursive: true, force: true });
      const stale = examples.finish();
      if (stale.length > 0) {
        throw new Error(
          `Recorded OpenAPI success examples no longer fit what the routes answered (re-record: docs/testing.md):\n${stale.join('\n')}`,
        );
      }
    },
  };
}
