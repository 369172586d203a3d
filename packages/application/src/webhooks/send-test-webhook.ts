import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { WebhookDeliveryRepository } from './ports';
import { AttemptReport, WebhookSender } from './webhook-sender';

export const PING_MESSAGE = 'This is a test delivery from voiceplane.';
/** A ping is attempted once while the caller waits; a replay gives it the full schedule. */
const PING_MAX_ATTEMPTS = 1;

export interface TestWebhookResult extends AttemptReport {
  readonly deliveryId: string;
}

/**
 * `POST /api/user/webhooks/test`: one signed `ping`, one attempt made while the caller waits,
 * recorded as a delivery of the account.
 */
export class SendTestWebhook {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(userId: number, url: string, requestId: string | null): Promise<TestWebhookResult> {
    const now = this.clock.now();
    const lease = this.sender.newLease(now);
    // Created already held by this attempt. Should this process die before the attempt is
    // written, the overdue sweep makes it once the lease has run out. Committed as a transaction so
    // that a request with an Idempotency-Key is marked carried out: its retry never pings again.
    const delivery = await this.uow.transaction(() =>
      this.deliveries.insert({
        id: this.ids.token('dlv_', 22),
        webhookId: this.ids.token('msg_', 22),
        userId,
        eventType: 'ping',
        targetUrl: url,
        body: JSON.stringify({ event: 'ping', message: PING_MESSAGE, timestamp: now.toISOString() }),
        source: { type: 'account', id: userId },
        subject: null,
        requestId,
        maxAttempts: PING_MAX_ATTEMPTS,
        now,
        lease,
      }),
    );
    const result = (report: AttemptReport): TestWebhookResult => ({ deliveryId: delivery.id, ...report });
    const report = await this.sender.attemptClaimed(
      {
        delivery,
        state: {
          status: delivery.status,
          attemptsCount: delivery.attemptsCount,
          roundAttempts: 0,
          maxAttempts: PING_MAX_ATTEMPTS,
          leaseToken: lease.token,
        },
      },
      // The attempt's outcome and the answer made from it commit together: a retry after a crash
      // replays the answer instead of pinging again.
      (settle) => this.uow.transaction(settle, { concludes: result }),
    );
    return result(report);
  }
}
