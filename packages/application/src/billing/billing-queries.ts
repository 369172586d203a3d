import {
  allowancePeriod,
  allowanceRemaining,
  CallMinutePrices,
  err,
  LedgerEntry,
  LedgerEntryType,
  ok,
  OpenCallCounts,
  reservedForOpenCalls,
  Result,
  User,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { LedgerRepository, UserRepository } from '../ports';
import { Page, PageRequest } from '../common';

/** How many template messages of the account the monthly allowance paid for since a time (the chat-app messages know). */
export interface TemplateAllowanceUsage {
  allowanceUsed(userId: number, since: Date): Promise<number>;
}

/** The calls in progress hold their first minute of the balance (the calls know how many there are). */
export interface CallReservations {
  readonly calls: { openCallCounts(userId: number): Promise<OpenCallCounts> };
  readonly prices: CallMinutePrices;
}

/** The account's money as its owner reads it. */
export interface BalanceView {
  readonly user: User;
  /** Held by the calls in progress until they end. */
  readonly reserved: number;
  /** Zero on a plan without included template messages. */
  readonly includedTemplateMessagesRemaining: number;
  readonly allowanceResetsAt: Date;
}

/**
 * What the account's owner reads of its money: the balance with what is left of this month's
 * template allowance (an account gone since its credentials were checked is refused), and its
 * ledger.
 */
export class BillingQueries {
  constructor(
    private readonly users: UserRepository,
    private readonly ledger: LedgerRepository,
    private readonly allowance: TemplateAllowanceUsage,
    private readonly clock: Clock,
    private readonly reservations: CallReservations,
  ) {}

  async balance(userId: number): Promise<Result<BalanceView, 'account_gone'>> {
    const user = await this.users.findById(userId);
    if (!user) return err('account_gone');
    const period = allowancePeriod(this.clock.now());
    const included = user.plan.included_template_messages;
    // A plan without an allowance has nothing to count.
    const remaining =
      included > 0 ? allowanceRemaining(included, await this.allowance.allowanceUsed(user.id, period.startsAt)) : 0;
    const reserved = reservedForOpenCalls(
      await this.reservations.calls.openCallCounts(user.id),
      this.reservations.prices,
    );
    return ok({ user, reserved, includedTemplateMessagesRemaining: remaining, allowanceResetsAt: period.resetsAt });
  }

  /** Newest first, optionally of one entry type. */
  entries(userId: number, page: PageRequest, type?: LedgerEntryType): Promise<Page<LedgerEntry>> {
    return this.ledger.list(userId, page, type);
  }
}
