import {
  DebitRefusal,
  LedgerEntry,
  LedgerReferenceType,
  ok,
  postCharge,
  postOperatorAmount,
  Result,
} from '@voiceplane/domain';
import { LedgerRepository, UserNotFound } from '../ports';

export interface ChargeRequest {
  readonly userId: number;
  readonly price: number;
  readonly description: string;
  readonly reference: { readonly type: LedgerReferenceType; readonly id: number } | null;
  /** Call-end charges and number renewals may take the balance below zero. */
  readonly mayGoNegative?: boolean;
  readonly requestId?: string | null;
  /** The balance the caller read under the user's balance lock in this same transaction (`UserRepository.lockBalance`). */
  readonly heldBalance?: number;
}

export type BalanceError = DebitRefusal | UserNotFound;

/**
 * What a capability does with every charge, in the charge's transaction and under its balance
 * lock (auto-recharge notices a balance left below its threshold). It must only write: the
 * charge is never delayed by a provider or undone by a refusal.
 */
export interface ChargeFollowUp {
  afterCharge(entry: LedgerEntry, balanceBefore: number): Promise<void>;
}

/**
 * Every balance change: the domain posting inside the ledger's row lock — in the caller's
 * transaction when there is one, so a charge commits together with the state change it pays for.
 */
export class BalanceService {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly followUp: ChargeFollowUp | null = null,
  ) {}

  charge(request: ChargeRequest): Promise<Result<LedgerEntry, BalanceError>> {
    const followUp = this.followUp;
    return this.ledger.post(
      request.userId,
      (balance) => {
        const posting = postCharge(balance, request.price, request.mayGoNegative);
        if (!posting.ok) return posting;
        return ok({
          type: posting.value.type,
          amount: posting.value.amount,
          balanceAfter: posting.value.balanceAfter,
          description: request.description,
          reference: request.reference,
          requestId: request.requestId ?? null,
        });
      },
      {
        followUp: followUp ? (entry, before) => followUp.afterCharge(entry, before) : undefined,
        heldBalance: request.heldBalance,
      },
    );
  }

  /** Operator top-up (positive) or correction (negative); corrections may go below zero. */
  /** Concludes in the posting's commit: an idempotent answer to it is stored with the entry. */
  async adjust(userId: number, amount: number, note: string, requestId: string | null): Promise<LedgerEntry | null> {
    const entryOf = (posted: Result<LedgerEntry, unknown>) => (posted.ok ? posted.value : null);
    const posted = await this.ledger.post(
      userId,
      (balance) => {
        const posting = postOperatorAmount(balance, amount);
        return ok({
          type: posting.type,
          amount: posting.amount,
          balanceAfter: posting.balanceAfter,
          description: note,
          reference: null,
          requestId,
        });
      },
      { concludes: entryOf },
    );
    return entryOf(posted);
  }
}
