import { DebitRefusal, err, LedgerReferenceType, ok, postCharge, postOperatorAmount, Result } from '@voiceplane/domain';
import { LedgerEntry, LedgerRepository, UserRepository } from '../ports/accounts';
import { UnitOfWork } from '../ports/unit-of-work';

export interface ChargeRequest {
  readonly userId: number;
  readonly price: number;
  readonly description: string;
  readonly reference: { readonly type: LedgerReferenceType; readonly id: number } | null;
  /** Call-end charges and number renewals may take the balance below zero (CONTRACT §13.3). */
  readonly mayGoNegative?: boolean;
  readonly requestId?: string | null;
}

export type BalanceError = DebitRefusal | { readonly code: 'user_not_found' };

/**
 * Every balance change: row lock, domain posting, ledger entry — in the caller's transaction when
 * there is one, so a charge commits together with the state change it pays for.
 */
export class BalanceService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  charge(request: ChargeRequest): Promise<Result<LedgerEntry, BalanceError>> {
    return this.uow.transaction(async () => {
      const balance = await this.users.lockBalance(request.userId);
      if (balance === null) return err({ code: 'user_not_found' as const });
      const posting = postCharge(balance, request.price, request.mayGoNegative);
      if (!posting.ok) return posting;
      await this.users.setBalance(request.userId, posting.value.balanceAfter);
      return ok(await this.ledger.append({
        userId: request.userId, type: posting.value.type, amount: posting.value.amount,
        balanceAfter: posting.value.balanceAfter, description: request.description,
        reference: request.reference, requestId: request.requestId ?? null,
      }));
    });
  }

  /** Operator top-up (positive) or correction (negative); corrections may go below zero. */
  adjust(userId: number, amount: number, note: string, requestId: string | null): Promise<LedgerEntry | null> {
    return this.uow.transaction(async () => {
      const balance = await this.users.lockBalance(userId);
      if (balance === null) return null;
      const posting = postOperatorAmount(balance, amount);
      await this.users.setBalance(userId, posting.balanceAfter);
      return this.ledger.append({
        userId, type: posting.type, amount: posting.amount, balanceAfter: posting.balanceAfter,
        description: note, reference: null, requestId,
      });
    });
  }
}
