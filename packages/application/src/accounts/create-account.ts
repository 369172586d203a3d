import { DEFAULT_PLAN, err, ok, Plan, postOperatorAmount, Result, User, withPlanChanges } from '@voiceplane/domain';
import { Ids } from '../ports';
import { CredentialRepository, LedgerRepository, SigningSecretRepository, UserRepository } from '../ports';
import { UnitOfWork } from '../ports';
import { hashPassword, hashToken } from './secrets';

export interface CreateAccountInput {
  readonly name: string;
  readonly email: string;
  readonly password?: string | null;
  readonly balance?: number;
  readonly plan?: Partial<Plan>;
  readonly requestId?: string | null;
}

export interface CreatedAccount {
  readonly user: User;
  readonly apiKey: { readonly id: number; readonly name: string; readonly token: string; readonly createdAt: Date };
}

/** A user arrives complete: default API key, signing secret and opening balance in one transaction. */
export class CreateAccount {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly credentials: CredentialRepository,
    private readonly secrets: SigningSecretRepository,
    private readonly ledger: LedgerRepository,
    private readonly ids: Ids,
  ) {}

  async execute(input: CreateAccountInput): Promise<Result<CreatedAccount, 'email_taken'>> {
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const token = this.ids.secretToken('vp_', 40);
    const secret = `whsec_${this.ids.secretBytes(32)}`;
    return this.uow.transaction(
      async () => {
        const user = await this.users.create({
          name: input.name,
          email: input.email,
          passwordHash,
          plan: withPlanChanges(DEFAULT_PLAN, input.plan ?? {}),
        });
        if (!user) return err('email_taken' as const);
        const key = await this.credentials.createApiKey(user.id, 'default', hashToken(token));
        await this.secrets.create(user.id, secret);
        let balance = 0;
        if (input.balance && input.balance > 0) {
          const opening = await this.ledger.post(user.id, (current) => {
            const posting = postOperatorAmount(current, input.balance ?? 0);
            return ok({
              type: posting.type,
              amount: posting.amount,
              balanceAfter: posting.balanceAfter,
              description: 'Opening balance',
              reference: null,
              requestId: input.requestId ?? null,
            });
          });
          if (!opening.ok) throw new Error(`User ${user.id} vanished while being created.`);
          balance = opening.value.balanceAfter;
        }
        return ok({
          user: { ...user, balance },
          apiKey: { id: key.id, name: key.name, token, createdAt: key.createdAt },
        });
      },
      { concludes: true },
    );
  }
}
