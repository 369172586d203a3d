import type { NotificationBell } from '../outbox/notifications';
import type { Database } from '../database';

/** Past this, a writer stops waiting for its own notification and forgets the user locally. */
const HEARD_TIMEOUT_MS = 1_000;
const REMEMBERED_USERS = 10_000;

/**
 * The principal triggers' notifications as this instance hears them (channel PRINCIPALS_CHANNEL,
 * payload a user id). Each one is passed to `forget`; a writer that revoked something also waits
 * until the notification of its own commit has arrived here before answering. PostgreSQL hands a
 * notification to every listening session at the same commit, so when the writer's client learns
 * the revocation succeeded, the other instances have been told too.
 */
export class PrincipalChanges implements NotificationBell {
  private heardCount = 0;
  private readonly lastHeard = new Map<string, number>();
  private readonly waiters = new Set<{ readonly payload: string; readonly resolve: () => void }>();

  constructor(
    private readonly forget: (userId?: number) => void,
    /** Whether notifications arrive at all; when not, nothing is cached and there is nothing to wait for. */
    private readonly live: () => boolean,
  ) {}

  ring(payload?: string): void {
    this.heardCount += 1;
    if (payload) {
      if (this.lastHeard.size >= REMEMBERED_USERS) this.lastHeard.clear();
      this.lastHeard.set(payload, this.heardCount);
    }
    this.forget(payload ? Number(payload) : undefined);
    for (const waiter of this.waiters) if (!payload || waiter.payload === payload) waiter.resolve();
  }

  /** Taken before a revoking write: `heard` then waits only for notifications after it. */
  mark(): number {
    return this.heardCount;
  }

  /** Resolves once the notification about `userId` sent after `mark` has arrived here. */
  heard(userId: number, mark: number): Promise<void> {
    const payload = String(userId);
    if (!this.live() || (this.lastHeard.get(payload) ?? 0) > mark) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        payload,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.forget(userId);
        waiter.resolve();
      }, HEARD_TIMEOUT_MS);
      this.waiters.add(waiter);
    });
  }
}

/**
 * After a revoking write: waits until this instance heard about it. Inside a transaction the
 * notification only goes out at commit, so there the caches learn of it moments after, unwaited.
 */
export async function principalChangeHeard(db: Database, changes: PrincipalChanges | undefined, userId: number, mark: number): Promise<void> {
  if (changes && !db.inTransaction) await changes.heard(userId, mark);
}
