import { AttemptError, DeliverySourceType, DeliveryStatus } from './delivery';

/** What an event is about (`{type: "call", id: 4812}`); null for a ping. */
export interface DeliverySubject {
  readonly type: string;
  readonly id: number | string;
}

export interface DeliverySource {
  readonly type: DeliverySourceType;
  readonly id: number;
}

export interface WebhookDelivery {
  /** `dlv_…` */
  readonly id: string;
  readonly userId: number;
  readonly eventType: string;
  /** `msg_…`: the `webhook-id` header of every attempt and replay. */
  readonly webhookId: string;
  readonly targetUrl: string;
  /** The exact JSON text sent (and signed) on every attempt. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attemptsCount: number;
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  readonly lastStatusCode: number | null;
  readonly lastError: AttemptError | null;
  readonly source: DeliverySource;
  readonly subject: DeliverySubject | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface DeliveryAttempt {
  readonly number: number;
  readonly at: Date;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: AttemptError | null;
  readonly responseExcerpt: string | null;
}
