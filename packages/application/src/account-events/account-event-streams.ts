import {
  AccountEvent,
  appendToBacklog,
  BacklogLimits,
  err,
  EventStreamRefusal,
  eventsAfter,
  mayOpenStream,
  ok,
  Result,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { BusMessage } from '../ports';
import { accountEventOf } from './bus-events';

/** One open stream, as the transport holds it. */
export interface StreamReader {
  deliver(event: AccountEvent): void;
  /** The instance is going away: the reader should end its stream (the client reconnects elsewhere). */
  end(): void;
}

export interface StreamLimits {
  /** Streams one account may hold open on one api instance. */
  readonly perAccount: number;
  readonly backlog: BacklogLimits;
  /** How often an idle stream shows its reader it is alive. */
  readonly heartbeatMs: number;
}

export interface OpenedStream {
  /** What the reader missed since its `Last-Event-ID`, oldest first. */
  readonly missed: readonly AccountEvent[];
  /** False when the `Last-Event-ID` given is no longer held: the reader must reload what it shows. */
  readonly resumed: boolean;
  close(): void;
}

/**
 * The live streams of this api instance and the backlog they resume from. Every instance hears
 * every event of the bus (its own transient subscription), so a reader may reconnect to any of
 * them; each event reaches only the streams of the account it names.
 */
export class AccountEventStreams {
  private readonly readers = new Map<number, Set<StreamReader>>();
  private readonly backlogs = new Map<number, AccountEvent[]>();
  private lastSweep = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: StreamLimits,
  ) {}

  open(userId: number, lastEventId: string | null, reader: StreamReader): Result<OpenedStream, EventStreamRefusal> {
    const open = this.readers.get(userId) ?? new Set<StreamReader>();
    const allowed = mayOpenStream(open.size, this.limits.perAccount);
    if (!allowed.ok) return err(allowed.error);
    open.add(reader);
    this.readers.set(userId, open);
    const since =
      lastEventId === null
        ? { kind: 'after' as const, events: [] }
        : eventsAfter(this.backlogs.get(userId) ?? [], lastEventId);
    return ok({
      missed: since.kind === 'after' ? since.events : [],
      resumed: since.kind === 'after',
      close: () => this.detach(userId, reader),
    });
  }

  /** The bus handler: keeps the event in its account's backlog and hands it to that account's streams. */
  readonly receive = async (message: BusMessage): Promise<void> => {
    const event = accountEventOf(message);
    if (event === null) return;
    const now = this.clock.now().getTime();
    const before = this.backlogs.get(event.userId) ?? [];
    const backlog = appendToBacklog(before, event, this.limits.backlog, now);
    this.backlogs.set(event.userId, backlog);
    this.sweep(now);
    // A redelivered event is already held: its streams have it too.
    if (backlog.length === before.length && before.some((e) => e.id === event.id)) return;
    for (const reader of this.readers.get(event.userId) ?? []) reader.deliver(event);
  };

  get heartbeatMs(): number {
    return this.limits.heartbeatMs;
  }

  openStreams(userId: number): number {
    return this.readers.get(userId)?.size ?? 0;
  }

  /** Ends every stream (the instance drains). */
  endAll(): void {
    for (const [userId, readers] of this.readers) {
      for (const reader of readers) reader.end();
      this.readers.delete(userId);
    }
  }

  private detach(userId: number, reader: StreamReader): void {
    const open = this.readers.get(userId);
    if (!open) return;
    open.delete(reader);
    if (open.size === 0) this.readers.delete(userId);
  }

  /** Backlogs of accounts with nothing recent are dropped, at most once a minute. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [userId, backlog] of this.backlogs) {
      const newest = backlog[backlog.length - 1];
      if (newest === undefined || now - newest.at > this.limits.backlog.maxAgeMs) this.backlogs.delete(userId);
    }
  }
}
