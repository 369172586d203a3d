import { err, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { BillingEventSource } from './ports';
import { BillingInbox } from './repositories';

export const BILLING_EVENT_RECEIVED_TOPIC = 'billing.event_received';

export interface BillingEventReceivedMessage {
  readonly inbox_id: number;
}

export type BillingIngressRefusal = 'unknown_provider' | 'invalid_signature';

/**
 * `POST /api/providers/billing/{provider}/webhook`: nothing is stored unless the
 * signature holds; a verified event is kept once per event id, and its processing is handed to
 * the worker in the same transaction. A redelivered event is acknowledged and stored no more.
 */
export class ReceiveBillingEvent {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sources: readonly BillingEventSource[],
    private readonly inbox: BillingInbox,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async execute(
    provider: string,
    rawBody: Buffer,
    signature: string | null,
  ): Promise<Result<'received', BillingIngressRefusal>> {
    const source = this.sources.find((s) => s.provider === provider);
    if (!source) return err('unknown_provider');
    const event = source.verify(rawBody, signature);
    if (!event) return err('invalid_signature');
    await this.uow.transaction(async () => {
      const inboxId = await this.inbox.store(source.provider, event, this.clock.now());
      const message: BillingEventReceivedMessage | null = inboxId === null ? null : { inbox_id: inboxId };
      if (message) await this.outbox.add([{ topic: BILLING_EVENT_RECEIVED_TOPIC, payload: message }]);
    });
    return ok('received');
  }
}
