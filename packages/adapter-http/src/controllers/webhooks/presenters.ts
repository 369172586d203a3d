import { DeliveryAttempt, WebhookDelivery } from '@voiceplane/domain';
import { SigningSecret } from '@voiceplane/application';
import { iso, isoOrNull } from '../../presenters/format';

/** A webhook delivery as the list shows it. */
export function presentDelivery(d: WebhookDelivery) {
  return {
    id: d.id,
    event_type: d.eventType,
    webhook_id: d.webhookId,
    target_url: d.targetUrl,
    status: d.status,
    attempts_count: d.attemptsCount,
    next_attempt_at: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
    last_attempt_at: isoOrNull(d.lastAttemptAt),
    last_status_code: d.lastStatusCode,
    last_error: d.lastError,
    source: { type: d.source.type, id: d.source.id },
    subject: d.subject,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}

/** A webhook delivery in detail: the payload sent and every attempt, oldest first. */
export function presentDeliveryDetail(d: WebhookDelivery, attempts: readonly DeliveryAttempt[]) {
  return {
    ...presentDelivery(d),
    payload: JSON.parse(d.body) as unknown,
    attempts: attempts.map((a) => ({
      number: a.number,
      at: iso(a.at),
      status_code: a.statusCode,
      duration_ms: a.durationMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
  };
}

export function presentSigningSecret(s: SigningSecret, previousExpiresAt: Date | null) {
  return { secret: s.secret, created_at: iso(s.createdAt), previous_secret_expires_at: isoOrNull(previousExpiresAt) };
}
