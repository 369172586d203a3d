import 'reflect-metadata';
import type { Application } from 'express';
import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { MessageBus, SecretCipher, TOKENS } from '@voiceplane/application';
import { buildHttpApp } from '@voiceplane/adapter-http';
import { Database, PostgresIdempotencyStore } from '@voiceplane/adapter-typeorm';
import { Config } from './config';
import { apiModules, BackgroundTask, ModuleContribution } from './modules';
import { VERSION } from './version';

export interface ApiRuntime {
  readonly app: Application;
  readonly container: Container;
  readonly database: Database;
  readonly adminToken: string;
  readonly runtimeToken: string;
  /** Tokens generated (not configured) on this start; printed once. */
  readonly generatedTokens: string[];
  readonly background: readonly BackgroundTask[];
  /** Started before the api listens and stopped after it drained, in every mode. */
  readonly serving: readonly BackgroundTask[];
  readonly contributions: readonly ModuleContribution[];
  /** Stops new requests (503) while the server drains. */
  startDraining(): void;
}

export interface ComposeDependencies {
  readonly dataSource: DataSource;
  readonly logger: Logger;
  readonly bus: MessageBus;
}

/** The api's composition root: ports bound to adapters, controllers mounted, nothing started. */
export async function composeApi(config: Config, deps: ComposeDependencies): Promise<ApiRuntime> {
  const database = new Database(deps.dataSource);
  const container = new Container();
  container.bind(Database).toConstantValue(database);
  container.bind(TOKENS.MessageBus).toConstantValue(deps.bus);
  const ctx = { container, config, database, logger: deps.logger, bus: deps.bus };
  const contributions = apiModules.map((m) => m(ctx));

  const settings = container.get(TOKENS.SettingsRepository);
  const ids = container.get(TOKENS.Ids);
  const generatedTokens: string[] = [];
  const deploymentToken = async (key: string, configured: string | null) => {
    if (configured) return configured;
    const stored = await settings.getOrCreate(key, ids.token('', 40));
    if (stored.created) generatedTokens.push(key);
    return stored.value;
  };
  const adminToken = await deploymentToken('admin_token', config.adminToken);
  const runtimeToken = await deploymentToken('runtime_token', config.runtimeToken);

  let draining = false;
  const app = await buildHttpApp({
    container,
    logger: deps.logger,
    version: VERSION,
    ids,
    now: () => new Date(),
    authenticator: container.get(TOKENS.Authenticator),
    rateLimiter: container.get(TOKENS.RateLimiter),
    idempotencyStore: container.get(PostgresIdempotencyStore),
    secrets: container.get(SecretCipher),
    adminToken,
    runtimeToken,
    routeQuotas: contributions.flatMap((c) => c.routeQuotas ?? []),
    databaseHealthy: async () => {
      await database.dataSource.query('SELECT 1');
      return true;
    },
    isDraining: () => draining,
    consoleDir: config.consoleDir,
    faults: config.faultHoldIdempotentAnswers
      ? {
          beforeIdempotentAnswer: () => {
            deps.logger.warn('fault: an idempotent answer is held after its effect committed');
            return new Promise<void>(() => undefined);
          },
        }
      : undefined,
  });

  return {
    app,
    container,
    database,
    adminToken,
    runtimeToken,
    generatedTokens,
    contributions,
    background: contributions.flatMap((c) => c.background ?? []),
    serving: contributions.flatMap((c) => c.serving ?? []),
    startDraining: () => {
      draining = true;
      for (const letGo of contributions.flatMap((c) => c.draining ?? [])) letGo();
    },
  };
}
