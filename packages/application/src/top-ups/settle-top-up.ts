import {
  AutoRechargeEvent,
  err,
  ok,
  postTopUpCredit,
  ProviderPaymentState,
  reconcileTopUp,
  Reconciliation,
  Result,
  settleRecharge,
  settleTopUp,
  TopUp,
  TopUpEvent,
  TopUpOutcome,
  TopUpRefusal,
  TopUpSettlement,
  TopUpStatus,
  TopUpTrigger,
  undoRechargeFailure,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { LedgerRepository } from '../ports';
import { NewOutboxEvent, Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { BillingGateway } from './ports';
import { AutoRechargeRepository, BillingProfile, BillingProfileRepository, TopUpRepository } from './repositories';

export interface SettlementScope {
  /** Only a top-up of this account (the sandbox `complete` route): another account's is `top_up_not_found`. */
  readonly userId?: number;
  /** Only a top-up of this kind (a checkout's provider events never settle an `auto` one). */
  readonly trigger?: TopUpTrigger;
  /** What the payment saved at the provider (the card for auto-recharge). */
  readonly profile?: BillingProfile;
}

export const topUpEventMessage = (e: TopUpEvent): NewOutboxEvent => ({
  topic: e.name,
  payload: { top_up_id: e.topUpId, user_id: e.userId, trigger: e.trigger },
});
export const autoRechargeEventMessage = (e: AutoRechargeEvent): NewOutboxEvent => ({
  topic: e.name,
  payload: { top_up_id: e.topUpId, user_id: e.userId },
});

export interface SettleTopUpDeps {
  readonly uow: UnitOfWork;
  readonly topUps: TopUpRepository;
  readonly ledger: LedgerRepository;
  readonly recharges: AutoRechargeRepository;
  readonly profiles: BillingProfileRepository;
  readonly outbox: Outbox;
  readonly gateway: BillingGateway;
  readonly clock: Clock;
}

/**
 * A provider's word on a top-up: under the top-up's row lock the domain moves it
 * out of `pending` once, and the credit, the saved card and the auto-recharge outcome commit with
 * that move. A replayed, late or out-of-order word finds it settled and changes nothing.
 */
export class SettleTopUp {
  constructor(private readonly d: SettleTopUpDeps) {}

  execute(topUpId: number, outcome: TopUpOutcome, scope: SettlementScope = {}): Promise<Result<TopUp, TopUpRefusal>> {
    return this.d.uow.transaction(async () => {
      const topUp = await this.d.topUps.lock(topUpId);
      if (
        !topUp ||
        (scope.userId !== undefined && topUp.userId !== scope.userId) ||
        (scope.trigger !== undefined && topUp.trigger !== scope.trigger)
      ) {
        return err('top_up_not_found' as const);
      }
      const now = this.d.clock.now();
      const settled = settleTopUp(topUp, outcome, now);
      if (!settled.ok) return settled;
      return ok(await this.apply(settled.value, scope, now));
    });
  }

  /**
   * Settles a top-up by what the provider says of its payment after an answer was lost (see the
   * domain's `reconcileTopUp`), under the same row lock as every other settlement, and records the
   * check. Answers what was decided; `not_reconcilable` when the locked top-up no longer needs it.
   */
  reconcile(topUpId: number, state: ProviderPaymentState): Promise<Reconciliation['kind'] | 'not_reconcilable'> {
    return this.d.uow.transaction(async () => {
      const topUp = await this.d.topUps.lock(topUpId);
      if (!topUp) return 'not_reconcilable';
      const now = this.d.clock.now();
      const decided = reconcileTopUp(topUp, state, now);
      if (!decided.ok) return 'not_reconcilable';
      const r = decided.value;
      // A paid checkout keeps the card it saved, as its provider event would have.
      const profile = state.kind === 'succeeded' ? state.savedCard : undefined;
      if (r.kind === 'settle') await this.apply(r.settlement, { profile }, now, topUp.status);
      await this.d.topUps.markChecked(topUpId, now, r.kind === 'unreconcilable' ? r.reason : null);
      return r.kind;
    });
  }

  /**
   * The move, its credit, saved card, auto-recharge outcome and events, inside the caller's
   * transaction. `from`: the status it moves out of (`failed` when a reconciliation found the
   * payment of a failed charge taken after all).
   */
  private async apply(
    settlement: TopUpSettlement,
    scope: SettlementScope,
    now: Date,
    from: TopUpStatus = 'pending',
  ): Promise<TopUp> {
    const { next, credit, events } = settlement;
    await this.d.topUps.saveSettled(next);
    if (credit) {
      const posted = await this.d.ledger.post(next.userId, (balance) =>
        ok({
          ...postTopUpCredit(balance, credit),
          description: credit.description,
          reference: credit.reference,
          requestId: null,
        }),
      );
      if (!posted.ok) throw new Error(`top-up ${next.id}: its account is gone`);
    }
    if (scope.profile && next.status === 'succeeded')
      await this.d.profiles.remember(next.userId, this.d.gateway.provider, scope.profile, now);
    const messages = events.map(topUpEventMessage);
    if (next.trigger === 'auto') {
      const recharge = await this.d.recharges.lock(next.userId);
      // A failure turned success takes back the failure it counted; any other outcome settles the attempt in flight.
      const transition = from === 'failed' ? undoRechargeFailure(recharge, next) : settleRecharge(recharge, next);
      if (transition.ok) {
        await this.d.recharges.save(transition.value.next, now);
        messages.push(...transition.value.events.map(autoRechargeEventMessage));
      }
    }
    await this.d.outbox.add(messages);
    return next;
  }
}
