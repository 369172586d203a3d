import { Clock } from '../ports';
import { OperationsLog } from '../telephony';
import { SmsMessageRepository, SmsProvider } from './ports';
import { SendSms } from './send-sms';

/** How old a `pending` SMS must be before the sweep takes it: far beyond any provider timeout. */
export const SMS_PENDING_GRACE_MS = 5 * 60_000;

export const UNKNOWN_OUTCOME_REASON = 'The send was interrupted; the provider never confirmed it. Nothing was charged.';

/**
 * Settles sends whose process died between the reservation and the settlement, so their held cost
 * is not held for ever: a message the provider took (it says so when asked, or a delivery report
 * brought its id) is charged once, as the request would have; any other is released uncharged.
 * Settling marks the row first, so the sweep and a late request never both charge.
 */
export class SmsSettlementSweep {
  constructor(
    private readonly messages: SmsMessageRepository,
    private readonly provider: SmsProvider,
    private readonly send: SendSms,
    private readonly clock: Clock,
    private readonly log: OperationsLog,
  ) {}

  /** Answers how many stale sends were settled or released. */
  async sweep(limit = 100): Promise<number> {
    const stale = await this.messages.stalePending(new Date(this.clock.now().getTime() - SMS_PENDING_GRACE_MS), limit);
    for (const m of stale) {
      const taken =
        m.providerMessageId ??
        (await this.provider.findSent?.({
          userId: m.userId,
          phoneNumberId: m.phoneNumberId,
          from: m.from,
          to: m.to,
          body: m.body,
          reference: m.id,
        })) ??
        null;
      if (taken !== null) {
        await this.send.settle(m, taken).catch((e: unknown) => {
          // Settled meanwhile by its own request: nothing left to do.
          this.log.warn({ smsId: m.id, err: String(e) }, 'stale SMS settled elsewhere');
        });
      } else await this.messages.release(m.id, UNKNOWN_OUTCOME_REASON, this.clock.now());
    }
    return stale.length;
  }
}
