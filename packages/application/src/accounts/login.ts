import { err, ok, Result, User } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { CredentialRepository, UserRepository } from '../ports';
import { hashToken, verifyPassword } from './secrets';

export interface Session {
  readonly token: string;
  readonly expiresAt: Date;
  readonly user: User;
}

export class Login {
  constructor(
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly sessionTtlHours: number,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(email: string, password: string): Promise<Result<Session, 'invalid_credentials'>> {
    const user = await this.users.findByEmail(email);
    // Unknown e-mail, no password, wrong password and disabled user all look the same.
    if (!user || !user.passwordHash || user.disabled || !(await verifyPassword(password, user.passwordHash))) {
      return err('invalid_credentials');
    }
    const token = this.ids.secretToken('vps_', 40);
    const expiresAt = new Date(this.clock.now().getTime() + this.sessionTtlHours * 3600_000);
    // The token is shown once: an idempotent answer carrying it is stored in the session's own commit.
    return this.uow.transaction(
      async () => {
        await this.credentials.createSession(user.id, hashToken(token), expiresAt);
        return ok({ token, expiresAt, user });
      },
      { concludes: true },
    );
  }
}
