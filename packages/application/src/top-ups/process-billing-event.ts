import { Clock } from '../ports';
import { BillingEventSource } from './ports';
import { BillingInbox } from './repositories';
import { SettleTopUp } from './settle-top-up';

/**
 * One stored provider event, in the worker: the provider's adapter says what it means for a
 * top-up (it may ask the provider, e.g. for the saved card), then the settlement decides.
 * Events about nothing of ours, and words on settled top-ups, are marked processed and ignored.
 */
export class ProcessBillingEvent {
  constructor(
    private readonly sources: readonly BillingEventSource[],
    private readonly inbox: BillingInbox,
    private readonly settle: SettleTopUp,
    private readonly clock: Clock,
  ) {}

  async execute(inboxId: number): Promise<void> {
    const stored = await this.inbox.find(inboxId);
    if (!stored || stored.processedAt) return;
    const source = this.sources.find((s) => s.provider === stored.provider);
    const report = source ? await source.interpret(stored) : null;
    if (report) {
      await this.settle.execute(report.topUpId, report.outcome, {
        trigger: report.trigger,
        profile: { customerRef: report.customerRef, paymentMethodRef: report.paymentMethodRef },
      });
    }
    await this.inbox.markProcessed(inboxId, this.clock.now());
  }
}
