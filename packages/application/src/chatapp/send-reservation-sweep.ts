import { WorkLogger } from '../events';
import { Clock } from '../ports';
import { loggableError } from '../common';
import { OutboundSends } from './outbound-send';
import { SenderRepository } from './ports';
import { ChatappProvider } from './provider-ports';
import { ProviderSenders } from './provider-senders';
import { SendReservationRepository } from './send-reservations';

/** How often the sweep runs. */
export const SEND_SWEEP_INTERVAL_MS = 60_000;
/** A reservation this old has no request left waiting on it: past any provider timeout (15 s) and a slow settle. */
export const SEND_SETTLE_AFTER_MS = 2 * 60_000;
/** A provider that cannot be reached about a send for this long gets no more asking: its hold is given back as `unknown`. */
export const SEND_GIVE_UP_MS = 24 * 60 * 60_000;
const SWEEP_BATCH = 50;

/** Where the open reservations and their senders are read. */
export interface SendReservationSweepStores {
  readonly reservations: SendReservationRepository;
  readonly senders: SenderRepository;
}

/** How the provider is asked about a send, and how the answer is settled. */
export interface SendReservationSweepProvider {
  readonly providerSenders: ProviderSenders;
  readonly provider: ChatappProvider;
  readonly outbound: OutboundSends;
}

/**
 * Settles the sends whose process died between reservation and settlement, by what the provider
 * says of the message sid it was given: sent — recorded and charged like any send; never sent —
 * the reservation is given back. A provider that cannot be asked about one message (WhatsApp
 * Cloud keeps no lookup by reference) gets the reservation back as `unknown`: charging for a
 * message that may never have gone out is the worse error. Whoever closes the reservation first
 * settles it, so several sweeps and a late request settle one send once.
 */
export class SendReservationSweep {
  private readonly reservations: SendReservationRepository;
  private readonly senders: SenderRepository;
  private readonly providerSenders: ProviderSenders;
  private readonly provider: ChatappProvider;
  private readonly outbound: OutboundSends;

  constructor(
    stores: SendReservationSweepStores,
    provider: SendReservationSweepProvider,
    private readonly clock: Clock,
    private readonly log: Pick<WorkLogger, 'warn'>,
  ) {
    ({ reservations: this.reservations, senders: this.senders } = stores);
    ({ providerSenders: this.providerSenders, provider: this.provider, outbound: this.outbound } = provider);
  }

  /** One pass; answers what was decided for each reservation looked at. */
  async sweep(): Promise<Record<number, string>> {
    const now = this.clock.now();
    const open = await this.reservations.open(new Date(now.getTime() - SEND_SETTLE_AFTER_MS), SWEEP_BATCH);
    const decided: Record<number, string> = {};
    for (const r of open) {
      const sender = await this.senders.findOwned(r.userId, r.senderId);
      if (sender === null) {
        decided[r.id] = await this.close(r.id, 'released');
        continue;
      }
      let found;
      try {
        found = await this.provider.findSend(await this.providerSenders.of(sender), r.recipientPhone, r.messageSid);
      } catch (e) {
        this.log.warn(
          { reservationId: r.id, error: loggableError(e) },
          'a chat-app send could not be looked up at the provider',
        );
        decided[r.id] =
          now.getTime() - r.now.getTime() >= SEND_GIVE_UP_MS ? await this.close(r.id, 'unknown') : 'unreachable';
        continue;
      }
      if (found === 'unknown') {
        this.log.warn(
          { reservationId: r.id, messageSid: r.messageSid },
          'a chat-app send whose process died was given back without knowing whether it went out',
        );
        decided[r.id] = await this.close(r.id, 'unknown');
      } else if (found === null) {
        decided[r.id] = await this.close(r.id, 'released');
      } else {
        decided[r.id] = (await this.outbound.settleSwept(r, sender, found)) === null ? 'settled_already' : 'sent';
      }
    }
    return decided;
  }

  private async close(id: number, outcome: 'released' | 'unknown'): Promise<string> {
    return (await this.reservations.close(id, outcome, this.clock.now())) ? outcome : 'settled_already';
  }
}
