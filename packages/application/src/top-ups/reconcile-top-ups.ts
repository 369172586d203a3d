import { RECONCILE_AFTER_MS, RECONCILE_GIVE_UP_MS } from '@voiceplane/domain';
import { WorkLogger } from '../events';
import { Clock } from '../ports';
import { loggableError } from '../common';
import { BillingGateway } from './ports';
import { TopUpRepository } from './repositories';
import { SettleTopUp } from './settle-top-up';

/** How often the sweep runs, and how long a top-up it checked waits before the next check. */
export const RECONCILE_INTERVAL_MS = 5 * 60_000;
const RECONCILE_BATCH = 20;

/**
 * The reconciliation sweep: asks the billing provider about auto top-ups stuck `pending` or
 * `failed` on a lost answer, and checkouts still `pending` whose provider event never came, and
 * settles each by the answer, exactly once (`SettleTopUp.reconcile`
 * decides again under the top-up's row lock, so sweeps on several instances settle one top-up once).
 * A top-up the provider still processes after a day, or cannot be asked about for a day, is
 * listed for operators.
 */
export class ReconcileTopUps {
  constructor(
    private readonly topUps: TopUpRepository,
    private readonly gateway: BillingGateway,
    private readonly settle: SettleTopUp,
    private readonly clock: Clock,
    private readonly log: Pick<WorkLogger, 'warn'>,
  ) {}

  /** One pass; answers what was decided for each top-up looked at. */
  async sweep(): Promise<Record<number, string>> {
    const now = this.clock.now();
    const due = await this.topUps.awaitingReconciliation(
      new Date(now.getTime() - RECONCILE_AFTER_MS),
      new Date(now.getTime() - RECONCILE_INTERVAL_MS),
      RECONCILE_BATCH,
    );
    const decided: Record<number, string> = {};
    for (const { topUp, providerReference } of due) {
      try {
        const state = await this.gateway.paymentState(topUp, providerReference);
        decided[topUp.id] = await this.settle.reconcile(topUp.id, state);
      } catch (e) {
        this.log.warn(
          { topUpId: topUp.id, provider: this.gateway.provider, error: loggableError(e) },
          'top-up reconciliation could not reach the billing provider',
        );
        const givenUp = now.getTime() - topUp.createdAt.getTime() >= RECONCILE_GIVE_UP_MS;
        await this.topUps.markChecked(topUp.id, now, givenUp ? 'provider_unreachable' : null);
        decided[topUp.id] = givenUp ? 'unreconcilable' : 'unreachable';
      }
    }
    return decided;
  }
}
