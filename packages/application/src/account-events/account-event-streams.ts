import { AccountEvent, BacklogLimits, err, EventStreamRefusal, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { BusMessage } from '../ports';
import { accountEventOf } from './bus-events';
import { AccountEventStore } from './ports';

/** One open stream, as the transport holds it. */
export interface StreamReader {
  deliver(event: AccountEvent): void;
  /** The instance is going away, or the stream's lease lapsed: the reader ends its stream (the client reconnects). */
  end(): void;
}

export interface StreamLimits {
  /** Streams one account may hold open over every api instance. */
  readonly perAccount: number;
  readonly backlog: BacklogLimits;
  /** How often an idle stream shows its reader it is alive; the instance renews its leases as often. */
  readonly heartbeatMs: number;
}

export interface OpenedStream {
  /** What the reader missed since its `Last-Event-ID`, oldest first. */
  readonly missed: readonly AccountEvent[];
  /** False when the `Last-Event-ID` given is no longer held: the reader must reload what it shows. */
  readonly resumed: boolean;
  /** The transport wrote what was missed: events that arrived meanwhile follow, then every event as it comes. */
  goLive(): void;
  close(): void;
}

/** A lease outlives a few missed renewals, and lapses soon enough that a dead instance's places come back. */
const leaseMsOf = (heartbeatMs: number): number => Math.max(45_000, 3 * heartbeatMs);
/** Event ids this instance handed out lately: a redelivered event reaches no stream twice. */
const RECENT_IDS = 1_000;
const SWEEP_EVERY_MS = 60_000;

interface Held {
  readonly userId: number;
  readonly reader: StreamReader;
}

/**
 * The live streams of this api instance. Every instance hears every event of the bus (its own
 * transient subscription) and hands each to the streams of the account it names; the limit and
 * the backlog are shared through the store, so a reader may reconnect to any instance.
 */
export class AccountEventStreams {
  /** Open streams by lease id. */
  private readonly held = new Map<string, Held>();
  /** Closed streams whose lease is being given back, by lease id: they count until it is. */
  private readonly releasing = new Map<string, number>();
  private readonly recent = new Set<string>();
  private readonly renewal: NodeJS.Timeout;
  private lastSweep = 0;
  private renewing = false;

  constructor(
    private readonly clock: Clock,
    private readonly limits: StreamLimits,
    private readonly store: AccountEventStore,
    /** This instance's name on its leases. */
    readonly instance: string,
    private readonly newLeaseId: () => string,
  ) {
    this.renewal = setInterval(() => void this.renew(), limits.heartbeatMs);
    this.renewal.unref();
  }

  async open(
    userId: number,
    lastEventId: string | null,
    reader: StreamReader,
  ): Promise<Result<OpenedStream, EventStreamRefusal>> {
    const leaseId = this.newLeaseId();
    const now = this.clock.now().getTime();
    const lease = { id: leaseId, userId, instance: this.instance };
    if (!(await this.store.takeLease(lease, this.limits.perAccount, new Date(now), this.leaseUntil(now)))) {
      return err('too_many_streams');
    }
    // Live events are held back while the backlog is read, then follow it without repeats.
    const arrived: AccountEvent[] = [];
    let live = false;
    this.held.set(leaseId, {
      userId,
      reader: {
        deliver: (event) => (live ? reader.deliver(event) : arrived.push(event)),
        end: () => reader.end(),
      },
    });
    const close = () => {
      if (!this.held.delete(leaseId)) return;
      this.releasing.set(leaseId, userId);
      void this.store
        .releaseLease(leaseId)
        .catch(() => undefined)
        .finally(() => this.releasing.delete(leaseId));
    };
    try {
      const since = lastEventId === null ? [] : await this.store.after(userId, lastEventId, this.limits.backlog.size);
      const fresh = (since ?? []).filter((e) => now - e.at <= this.limits.backlog.maxAgeMs);
      const goLive = () => {
        const ids = new Set(fresh.map((e) => e.id));
        live = true;
        for (const event of arrived.splice(0)) if (!ids.has(event.id)) reader.deliver(event);
      };
      return ok({ missed: fresh, resumed: since !== null, goLive, close });
    } catch (e) {
      close();
      throw e;
    }
  }

  /** The bus handler: stores the event for readers that resume, then hands it to its account's open streams. */
  readonly receive = async (message: BusMessage): Promise<void> => {
    const event = accountEventOf(message);
    if (event === null || this.recent.has(event.id)) return;
    this.remember(event.id);
    try {
      // Stored before it is handed out: a stream opened meanwhile finds it in the backlog.
      await this.store.append(event);
    } catch {
      // The live streams still get it; only a later resume misses it, and `resumed` stays honest for ids it holds.
    }
    for (const { userId, reader } of this.held.values()) if (userId === event.userId) reader.deliver(event);
    await this.sweep();
  };

  get heartbeatMs(): number {
    return this.limits.heartbeatMs;
  }

  openStreams(userId: number): number {
    const held = [...this.held.values()].filter((h) => h.userId === userId).length;
    return held + [...this.releasing.values()].filter((id) => id === userId).length;
  }

  /** Ends every stream and gives back their places (the instance drains). */
  async endAll(): Promise<void> {
    clearInterval(this.renewal);
    const held = [...this.held.values()];
    this.held.clear();
    for (const { reader } of held) reader.end();
    await this.store.releaseInstance(this.instance).catch(() => undefined);
  }

  /** Keeps this instance's leases alive; a stream whose lease lapsed (the instance stalled) is ended. */
  private async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    try {
      const now = this.clock.now().getTime();
      const kept = new Set(await this.store.renewLeases(this.instance, new Date(now), this.leaseUntil(now)));
      for (const [leaseId, { reader }] of this.held) {
        if (kept.has(leaseId)) continue;
        this.held.delete(leaseId);
        reader.end();
      }
    } catch {
      // The database is away: the next heartbeat tries again; leases outlive a few misses.
    } finally {
      this.renewing = false;
    }
  }

  private leaseUntil(nowMs: number): Date {
    return new Date(nowMs + leaseMsOf(this.limits.heartbeatMs));
  }

  private remember(id: string): void {
    this.recent.add(id);
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value as string);
  }

  /** Trims the shared backlog, at most once a minute per instance. */
  private async sweep(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.store
      .trim(new Date(now - this.limits.backlog.maxAgeMs), this.limits.backlog.size)
      .catch(() => undefined);
  }
}
