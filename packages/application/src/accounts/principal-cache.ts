import { Principal } from '../ports';

interface Entry {
  readonly principal: Principal;
  readonly expiresAtMs: number;
}

/** A safety net only: revocations arrive as notifications and drop entries at once. */
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX_ENTRIES = 50_000;

/**
 * Principals by token hash, so an authenticated request needs no credential read. Safe only while
 * every change that revokes a principal reaches `forgetUser`/`forgetAll` (the composition wires
 * database notifications): `live()` says whether they arrive right now — while not, nothing is
 * served from or stored in the cache — and `caughtUp()` resolves once every change committed before
 * it was called has been heard, so a hit is served only after the changes committed before the
 * request arrived. Unknown tokens are never cached: a key works the moment it is created.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private readonly tokensOfUser = new Map<number, Set<string>>();
  /** Bumped by every forget: a lookup that started before one must not store what it read. */
  private generation = 0;

  constructor(
    private readonly live: () => boolean,
    private readonly caughtUp: () => Promise<void>,
    private readonly options: { readonly ttlMs: number; readonly maxEntries: number } = {
      ttlMs: DEFAULT_TTL_MS,
      maxEntries: DEFAULT_MAX_ENTRIES,
    },
  ) {}

  async get(tokenHash: string, now: Date): Promise<Principal | undefined> {
    if (!this.peek(tokenHash, now)) return undefined;
    try {
      await this.caughtUp();
    } catch {
      return undefined;
    }
    return this.peek(tokenHash, now);
  }

  private peek(tokenHash: string, now: Date): Principal | undefined {
    if (!this.live()) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= now.getTime()) {
      this.drop(tokenHash, entry.principal.userId);
      return undefined;
    }
    return entry.principal;
  }

  /** Taken before reading the database; `put` then stores only if nothing was forgotten meanwhile. */
  stamp(): number {
    return this.generation;
  }

  put(tokenHash: string, principal: Principal, stamp: number, now: Date): void {
    if (stamp !== this.generation || !this.live()) return;
    if (this.entries.size >= this.options.maxEntries && !this.entries.has(tokenHash)) this.evictOldest();
    const ttlEnd = now.getTime() + this.options.ttlMs;
    const expiresAtMs = principal.expiresAt ? Math.min(ttlEnd, principal.expiresAt.getTime()) : ttlEnd;
    this.entries.set(tokenHash, { principal, expiresAtMs });
    let tokens = this.tokensOfUser.get(principal.userId);
    if (!tokens) this.tokensOfUser.set(principal.userId, (tokens = new Set()));
    tokens.add(tokenHash);
  }

  /** A credential, the state or the plan of this user changed. */
  forgetUser(userId: number): void {
    this.generation += 1;
    for (const tokenHash of this.tokensOfUser.get(userId) ?? []) this.entries.delete(tokenHash);
    this.tokensOfUser.delete(userId);
  }

  /** Anything may have changed (e.g. notifications were interrupted). */
  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
    this.tokensOfUser.clear();
  }

  private evictOldest(): void {
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.drop(oldest.value, this.entries.get(oldest.value)!.principal.userId);
  }

  private drop(tokenHash: string, userId: number): void {
    this.entries.delete(tokenHash);
    const tokens = this.tokensOfUser.get(userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.tokensOfUser.delete(userId);
  }
}
