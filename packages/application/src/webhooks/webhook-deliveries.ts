import {
  checkReplay,
  DeliverySource,
  DeliverySubject,
  err,
  MAX_DELIVERY_ATTEMPTS,
  ok,
  Result,
  WebhookDelivery,
  WebhookEventType,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { NewOutboxEvent, Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { JobScheduler } from '../events';
import { CancelCriteria, WebhookDeliveryRepository } from './ports';

/** Outbox topic that asks a worker to attempt a delivery now. */
export const DELIVERY_REQUESTED_TOPIC = 'webhook.delivery.requested';
/** Job kind of a delivery's next attempt: retries, and attempts the sweep finds overdue. */
export const DELIVERY_ATTEMPT_JOB = 'webhook.delivery.attempt';
/** At most one attempt job per delivery, under this key. */
export const deliveryJobKey = (deliveryId: string): string => `webhook-delivery:${deliveryId}`;

export interface DeliveryRequest {
  /** The account whose signing secret signs the delivery and whose log shows it. */
  readonly userId: number;
  readonly eventType: WebhookEventType;
  /** Captured now: later changes to the setting it came from do not affect this delivery. */
  readonly targetUrl: string;
  /** Serialised once, keys in the order given; every attempt sends the same bytes. */
  readonly payload: unknown;
  /** The setting that produced the event; disabling it cancels the delivery while pending. */
  readonly source: DeliverySource;
  readonly subject: DeliverySubject | null;
  /** The request that caused the event, when there was one. */
  readonly requestId?: string | null;
}

export interface EnqueuedDelivery {
  readonly deliveryId: string;
  readonly webhookId: string;
}

export type ReplayRefusal = 'not_found' | 'already_pending';

/**
 * The one way a capability sends a webhook. Call `enqueue` inside the transaction
 * of the state change that raised the event: the delivery exists if and only if the change
 * committed, and a worker sends it after the commit. `cancelPending` is for settings that are
 * switched off in the same process (the assistants' settings arrive as bus events instead).
 */
export class WebhookDeliveries {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly deliveries: WebhookDeliveryRepository,
    // Unused since the repository writes a delivery's event with it; kept so the wiring and the
    // specs that build this class stay as they are.
    _outbox: Outbox,
    private readonly scheduler: JobScheduler,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  async enqueue(request: DeliveryRequest): Promise<EnqueuedDelivery> {
    const id = this.ids.token('dlv_', 22);
    // The delivery and the event that asks for its first attempt are written together by the
    // repository (one statement on PostgreSQL): inside the caller's transaction they join it,
    // outside one they need no transaction block of their own. The bus brings the attempt within
    // milliseconds; should it not, the overdue sweep does.
    const delivery = await this.deliveries.insert({
      id,
      webhookId: this.ids.token('msg_', 22),
      userId: request.userId,
      eventType: request.eventType,
      targetUrl: request.targetUrl,
      body: JSON.stringify(request.payload ?? null),
      source: request.source,
      subject: request.subject,
      requestId: request.requestId ?? null,
      maxAttempts: MAX_DELIVERY_ATTEMPTS,
      now: this.clock.now(),
      events: [attemptRequest(id)],
    });
    return { deliveryId: delivery.id, webhookId: delivery.webhookId };
  }

  /** Cancels the source's pending deliveries of these event types; returns how many. */
  cancelPending(criteria: CancelCriteria): Promise<number> {
    return this.uow.transaction(async () => {
      const canceled = await this.deliveries.cancelPending(criteria, this.clock.now());
      await this.scheduler.cancel(canceled.map(deliveryJobKey));
      return canceled.length;
    });
  }

  /** Back to `pending` with the full schedule: same `webhook-id`, payload and target. */
  /** Concludes in the commit that restarts the delivery. */
  replay(userId: number, deliveryId: string): Promise<Result<WebhookDelivery, ReplayRefusal>> {
    return this.uow.transaction(
      async (): Promise<Result<WebhookDelivery, ReplayRefusal>> => {
        const restarted = await this.deliveries.restartOwned(userId, deliveryId, async (delivery) => {
          const allowed = checkReplay(delivery.status);
          if (!allowed.ok) return allowed;
          return ok({
            maxAttempts: allowed.value.maxAttempts,
            at: this.clock.now(),
            events: [attemptRequest(delivery.id)],
          });
        });
        if (restarted.ok) return restarted;
        return err(restarted.error === 'already_pending' ? restarted.error : 'not_found');
      },
      { concludes: true },
    );
  }
}

const attemptRequest = (deliveryId: string): NewOutboxEvent => ({
  topic: DELIVERY_REQUESTED_TOPIC,
  payload: { delivery_id: deliveryId },
});
