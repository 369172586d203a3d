import { Clock } from '../ports';
import { CredentialRepository, Principal } from '../ports';
import { PrincipalCache } from './principal-cache';
import { hashToken } from './secrets';

const TOKEN_SHAPE = /^vps?_[A-Za-z0-9]{40}$/;
const TOUCH_INTERVAL_MS = 60_000;

export class Authenticator {
  constructor(
    private readonly credentials: CredentialRepository,
    private readonly clock: Clock,
    /** Without one (or while it is not live) every request reads its principal. */
    private readonly cache: PrincipalCache = new PrincipalCache(
      () => false,
      async () => undefined,
    ),
  ) {}

  /**
   * Null for every failure (unknown, malformed, expired, revoked, deleted, user disabled).
   * `fresh` reads past the cache, for a decision a stale plan would get wrong.
   */
  async authenticate(token: string, options: { readonly fresh?: boolean } = {}): Promise<Principal | null> {
    // Tokens that cannot exist never reach the database.
    if (!TOKEN_SHAPE.test(token)) return null;
    const now = this.clock.now();
    const tokenHash = hashToken(token);
    let principal: Principal | null | undefined = options.fresh ? undefined : await this.cache.get(tokenHash, now);
    if (!principal) {
      const stamp = this.cache.stamp();
      principal = await this.credentials.findPrincipal(tokenHash, now);
      if (!principal) return null;
      this.cache.put(tokenHash, principal, stamp, now);
    }
    if (
      principal.tokenKind === 'api_key' &&
      (!principal.lastUsedAt || now.getTime() - principal.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS)
    ) {
      const stamp = this.cache.stamp();
      await this.credentials.touchApiKey(principal.tokenId, now);
      principal = { ...principal, lastUsedAt: now };
      this.cache.put(tokenHash, principal, stamp, now);
    }
    return principal;
  }
}
