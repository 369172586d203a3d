import type { PoolClient } from 'pg';
import { WorkLogger } from '@voiceplane/application';
import { mayDeliverNotifications, poolOf } from '../data-source';
import { Database } from '../database';

/** Channel of the scheduler's NOTIFY trigger (jobs due at once; migration EventBackbone). */
export const JOBS_CHANNEL = 'vp_jobs';
/** Channel of the principal triggers (payload: a user id; migration RequestFastPath). */
export const PRINCIPALS_CHANNEL = 'vp_principals';
/** Channel the outbox writers notify after their commit (payload empty). */
export const OUTBOX_CHANNEL = 'vp_outbox';

/**
 * What a notification reaches: a Doorbell, or anything that reads the payload. Rung without a
 * payload when the connection was lost, since anything may have happened meanwhile.
 */
export interface NotificationBell {
  ring(payload?: string): void;
}

/**
 * One LISTEN connection that rings a doorbell per channel, so a loop wakes as soon as work commits
 * (the scheduler, for jobs due at once). Reconnects after losing the connection. `start()` reports whether
 * notifications actually arrive: embedded PGlite hands a NOTIFY only to the session that sent it,
 * so there the loops must poll more often instead.
 */
export class PostgresNotifications {
  private client?: PoolClient;
  private stopped = false;
  private reconnectTimer?: NodeJS.Timeout;
  private delivers = false;
  private syncing?: Promise<void>;
  private nextSync?: Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly doorbells: Readonly<Record<string, NotificationBell>>,
    private readonly logger: WorkLogger,
  ) {}

  /** Listens, then proves delivery with a probe sent from another connection; true when it arrived. */
  async start(): Promise<boolean> {
    this.stopped = false;
    await this.connect();
    this.delivers = mayDeliverNotifications(this.db.dataSource) ? await this.probe() : false;
    return this.delivers;
  }

  /**
   * Resolves once every notification committed before the call has been handed to the bells: a
   * round trip on the LISTEN connection itself, whose backend sends pending notifications before it
   * answers. Calls made while one is in flight share the next round trip, so under load this costs
   * one trivial statement per round trip, not one per caller.
   */
  caughtUp(): Promise<void> {
    if (!this.syncing) {
      this.syncing = this.roundTrip().finally(() => {
        this.syncing = undefined;
      });
      return this.syncing;
    }
    this.nextSync ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.nextSync = undefined;
        return this.caughtUp();
      });
    return this.nextSync;
  }

  private async roundTrip(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('not listening');
    await client.query('SELECT 1');
  }

  /** True while notifications arrive: started, delivery proven, and the connection held. */
  get delivering(): boolean {
    return this.delivers && this.client !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.delivers = false;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('notification');
      await client.query('UNLISTEN *').catch(() => undefined);
      client.release();
    }
  }

  private async connect(): Promise<void> {
    const client = await poolOf(this.db.dataSource).connect();
    client.on('notification', (n) => this.doorbells[n.channel]?.ring(n.payload));
    client.on('error', (error) => this.lost(client, error));
    try {
      for (const channel of [...Object.keys(this.doorbells), PROBE_CHANNEL]) {
        await client.query(`LISTEN ${channel}`);
      }
    } catch (e) {
      client.release(e as Error);
      throw e;
    }
    // Stopped while a reconnect was in flight: a client kept now would never be released, and the
    // pool's end would wait for it forever.
    if (this.stopped) {
      client.release();
      return;
    }
    this.client = client;
  }

  private lost(client: PoolClient, error: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.release(error);
    if (this.stopped) return;
    this.logger.warn({ error: error.message }, 'lost the LISTEN connection; reconnecting');
    this.ringAll();
    const retry = (delayMs: number) => {
      this.reconnectTimer = setTimeout(() => {
        this.connect().then(
          // A commit after the look the loss rang for, but before LISTEN took hold again, sent its
          // notification to nobody: the loops look once more now that nothing can be missed.
          () => this.ringAll(),
          (e: Error) => {
            this.logger.warn({ error: e.message }, 'could not LISTEN again; retrying');
            // A destroyed DataSource never comes back; retrying it would keep the process alive.
            if (!this.stopped && this.db.dataSource.isInitialized) retry(Math.min(delayMs * 2, 10_000));
          },
        );
      }, delayMs);
    };
    retry(500);
  }

  /** Anything may have happened while notifications could not arrive; the loops' next look finds it. */
  private ringAll(): void {
    for (const doorbell of Object.values(this.doorbells)) doorbell.ring();
  }

  private async probe(): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const arrived = new Promise<boolean>((resolve) => {
      const settle = (answer: boolean) => {
        clearTimeout(timer);
        client.removeListener('notification', onNotification);
        resolve(answer);
      };
      const onNotification = (n: { channel: string }) => {
        if (n.channel === PROBE_CHANNEL) settle(true);
      };
      const timer = setTimeout(() => settle(false), 1_000);
      client.on('notification', onNotification);
    });
    await this.db.dataSource.query(`SELECT pg_notify('${PROBE_CHANNEL}', '')`);
    return arrived;
  }
}

const PROBE_CHANNEL = 'vp_probe';
