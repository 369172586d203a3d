import { err, ok, Result, User } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { CredentialRepository, Principal, UserRepository } from '../ports';

/** The caller's own account: who it is, and ending the session the request came with. */
export class CurrentAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  /** An account deleted after its token was checked leaves the caller unauthenticated. */
  async me(userId: number): Promise<Result<User, 'account_gone'>> {
    const user = await this.users.findById(userId);
    return user === null ? err('account_gone') : ok(user);
  }

  /** An API key is deleted, never logged out: only a session token ends here. */
  async logout(principal: Pick<Principal, 'tokenKind' | 'tokenId'>): Promise<Result<true, 'not_a_session'>> {
    if (principal.tokenKind !== 'session') return err('not_a_session');
    return this.uow.transaction(
      async () => {
        await this.credentials.revokeSession(principal.tokenId, this.clock.now());
        return ok(true as const);
      },
      { concludes: true },
    );
  }
}
