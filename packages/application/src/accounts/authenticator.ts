import { Clock } from '../ports/clock';
import { CredentialRepository, Principal } from '../ports/accounts';
import { hashToken } from './secrets';

const TOKEN_SHAPE = /^vps?_[A-Za-z0-9]{40}$/;
const TOUCH_INTERVAL_MS = 60_000;

export class Authenticator {
  constructor(private readonly credentials: CredentialRepository, private readonly clock: Clock) {}

  /** Null for every failure (unknown, malformed, expired, revoked, deleted, user disabled). */
  async authenticate(token: string): Promise<Principal | null> {
    // Tokens that cannot exist never reach the database.
    if (!TOKEN_SHAPE.test(token)) return null;
    const now = this.clock.now();
    const principal = await this.credentials.findPrincipal(hashToken(token), now);
    if (principal?.tokenKind === 'api_key' && (!principal.lastUsedAt || now.getTime() - principal.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS)) {
      await this.credentials.touchApiKey(principal.tokenId, now);
    }
    return principal;
  }
}
