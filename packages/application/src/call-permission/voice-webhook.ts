import { DeliverySubject, WebhookEventType } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { WebhookDeliveries } from '../webhooks';
import { VoiceWebhookSettingRepository } from './ports';

/** The events the account voice webhook receives. */
export const VOICE_EVENT_TYPES: readonly WebhookEventType[] = ['call_started', 'call_permission_granted'];

export interface VoiceEvent {
  readonly type: 'call_started' | 'call_permission_granted';
  /** The event body, keys in order. */
  readonly payload: Record<string, unknown>;
  readonly subject: DeliverySubject | null;
}

/**
 * The account's chat-app voice webhook: the setting, and the one way its events are raised. An
 * event is created only while a URL is set; clearing the URL cancels what is still pending.
 */
export class VoiceWebhook {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly settings: VoiceWebhookSettingRepository,
    private readonly deliveries: WebhookDeliveries,
    private readonly clock: Clock,
  ) {}

  url(userId: number): Promise<string | null> {
    return this.settings.find(userId);
  }

  /** Sets or clears (null) the URL; answers what is set now. */
  set(userId: number, webhookUrl: string | null): Promise<string | null> {
    return this.uow.transaction(async () => {
      await this.settings.save(userId, webhookUrl);
      if (webhookUrl === null) {
        await this.deliveries.cancelPending({
          userId,
          source: { type: 'account', id: userId },
          eventTypes: VOICE_EVENT_TYPES,
          createdUpTo: this.clock.now(),
        });
      }
      return webhookUrl;
    });
  }

  /** Queues the event for the account's URL inside the caller's transaction; nothing when no URL is set. */
  async raise(userId: number, event: VoiceEvent, requestId: string | null = null): Promise<void> {
    const targetUrl = await this.settings.find(userId);
    if (targetUrl === null) return;
    await this.deliveries.enqueue({
      userId,
      eventType: event.type,
      targetUrl,
      payload: event.payload,
      source: { type: 'account', id: userId },
      subject: event.subject,
      requestId,
    });
  }
}
