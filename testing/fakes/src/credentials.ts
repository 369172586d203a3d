import { ApiKey, Clock, CredentialRepository, Principal, UserRepository } from '@voiceplane/application';
import { copy } from './copy';

type KeyRow = { -readonly [K in keyof ApiKey]: ApiKey[K] } & { tokenHash: string };
interface SessionRow {
  readonly id: number;
  readonly userId: number;
  readonly tokenHash: string;
  readonly expiresAt: Date;
  revokedAt: Date | null;
}

/**
 * API keys and sessions in memory, with the semantics of the PostgreSQL repository (see the
 * credential-repository contract). Whether an account is disabled, and its plan, come from
 * `users`; times the database takes from `now()` come from `clock`.
 */
export class InMemoryCredentialRepository implements CredentialRepository {
  private readonly keys = new Map<number, KeyRow>();
  private readonly sessions = new Map<number, SessionRow>();
  private lastKey = 0;
  private lastSession = 0;

  constructor(
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async createApiKey(userId: number, name: string, tokenHash: string): Promise<ApiKey> {
    refuseTaken([...this.keys.values()], tokenHash, 'api_keys');
    const row: KeyRow = { id: ++this.lastKey, userId, name, tokenHash, lastUsedAt: null, createdAt: this.clock.now() };
    this.keys.set(row.id, row);
    return toKey(row);
  }

  async listApiKeys(userId: number): Promise<ApiKey[]> {
    return [...this.keys.values()]
      .filter((k) => k.userId === userId)
      .sort((a, b) => b.id - a.id)
      .map(toKey);
  }

  async deleteApiKey(userId: number, id: number): Promise<boolean> {
    return this.keys.get(id)?.userId === userId && this.keys.delete(id);
  }

  async createSession(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    refuseTaken([...this.sessions.values()], tokenHash, 'sessions');
    const id = ++this.lastSession;
    this.sessions.set(id, { id, userId, tokenHash, expiresAt: copy(expiresAt), revokedAt: null });
  }

  async revokeSession(sessionId: number, at: Date): Promise<void> {
    const row = this.sessions.get(sessionId);
    // As the conditional UPDATE: the first revocation time stays.
    if (row && row.revokedAt === null) row.revokedAt = copy(at);
  }

  /** API keys first, as the query's UNION ALL lists them. */
  async findPrincipal(tokenHash: string, now: Date): Promise<Principal | null> {
    for (const k of this.keys.values()) {
      if (k.tokenHash !== tokenHash) continue;
      const plan = await this.enabledPlan(k.userId);
      if (plan)
        return {
          userId: k.userId,
          tokenKind: 'api_key',
          tokenId: k.id,
          plan,
          lastUsedAt: copy(k.lastUsedAt),
          expiresAt: null,
        };
    }
    for (const s of this.sessions.values()) {
      if (s.tokenHash !== tokenHash || s.revokedAt !== null || s.expiresAt.getTime() <= now.getTime()) continue;
      const plan = await this.enabledPlan(s.userId);
      if (plan)
        return {
          userId: s.userId,
          tokenKind: 'session',
          tokenId: s.id,
          plan,
          lastUsedAt: null,
          expiresAt: copy(s.expiresAt),
        };
    }
    return null;
  }

  async touchApiKey(id: number, at: Date): Promise<void> {
    const row = this.keys.get(id);
    if (row) row.lastUsedAt = copy(at);
  }

  /** When the session was revoked, null while it is not (or does not exist): what a test checks a logout did. */
  revokedAt(sessionId: number): Date | null {
    return copy(this.sessions.get(sessionId)?.revokedAt ?? null);
  }

  private async enabledPlan(userId: number): Promise<Principal['plan'] | null> {
    const user = await this.users.findById(userId);
    return user && !user.disabled ? user.plan : null;
  }
}

function toKey({ tokenHash: _, ...key }: KeyRow): ApiKey {
  return copy(key);
}

/** As the tables' unique index on the hash: a second row with it fails the write. */
function refuseTaken(rows: readonly { tokenHash: string }[], tokenHash: string, table: string): void {
  if (rows.some((r) => r.tokenHash === tokenHash)) throw new Error(`duplicate token hash in ${table}`);
}
