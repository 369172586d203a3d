import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { MessageBus } from '@voiceplane/application';
import type { RouteQuota } from '@voiceplane/adapter-http';
import type { Database } from '@voiceplane/adapter-typeorm';
import type { Config } from '../config';

/** Work that runs beside the HTTP server: in the api process (single-process mode) or in the worker. */
export interface BackgroundTask {
  readonly name: string;
  start(): Promise<void>;
  /** Stops taking new work and waits for work in hand. */
  stop(): Promise<void>;
}

export interface ModuleContext {
  readonly container: Container;
  readonly config: Config;
  readonly database: Database;
  readonly logger: Logger;
  readonly bus: MessageBus;
}

/** What a capability adds to the composed application besides its container bindings. */
export interface ModuleContribution {
  readonly routeQuotas?: readonly RouteQuota[];
  readonly background?: readonly BackgroundTask[];
  /** Work every api instance runs while it serves requests, whatever runs its background work. */
  readonly serving?: readonly BackgroundTask[];
  /** Told when the api starts draining: what would hold a connection open (a live stream) lets go. */
  readonly draining?: readonly (() => void)[];
  /** Extra demo data for a freshly seeded demo account. */
  readonly seedDemo?: (userId: number) => Promise<void>;
}

export type ApiModule = (ctx: ModuleContext) => ModuleContribution;
