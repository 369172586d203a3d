/**
 * The assistant webhook state machine (spec "Assistant webhook", CONTRACT §3.11):
 * active (`is_webhook_active` true, URL set) ↔ inactive (`is_webhook_active` false, URL null).
 * Leaving `active` raises `assistant.webhook_disabled` so pending post-call deliveries are
 * canceled; clearing the conversation-ended URL raises its own event for the same reason.
 */

export interface WebhookState {
  readonly is_webhook_active: boolean;
  readonly webhook_url: string | null;
}

export interface WebhookSubject extends WebhookState {
  readonly id: number;
  readonly user_id: number;
  readonly conversation_ended_webhook_url: string | null;
}

export const ASSISTANT_EVENTS = ['assistant.webhook_disabled', 'assistant.conversation_ended_webhook_cleared', 'assistant.deleted'] as const;
export type AssistantEventName = (typeof ASSISTANT_EVENTS)[number];

export interface AssistantEvent {
  readonly name: AssistantEventName;
  readonly assistant_id: number;
  readonly user_id: number;
}

export interface WebhookTransition {
  readonly state: WebhookState;
  readonly events: AssistantEvent[];
}

const event = (name: AssistantEventName, a: { id: number; user_id: number }): AssistantEvent => ({ name, assistant_id: a.id, user_id: a.user_id });

/** Idempotent: disabling an inactive webhook changes nothing and raises nothing. */
export function disableWebhook(subject: WebhookSubject): WebhookTransition {
  return {
    state: { is_webhook_active: false, webhook_url: null },
    events: subject.is_webhook_active ? [event('assistant.webhook_disabled', subject)] : [],
  };
}

/** The URL must already have passed the write-time target check. */
export function enableWebhook(url: string): WebhookState {
  return { is_webhook_active: true, webhook_url: url };
}

/** Events implied by an update that moved the webhooks from `before` to `after`. */
export function webhookEventsOf(before: WebhookSubject, after: Omit<WebhookSubject, 'id' | 'user_id'>): AssistantEvent[] {
  const events: AssistantEvent[] = [];
  if (before.is_webhook_active && !after.is_webhook_active) events.push(event('assistant.webhook_disabled', before));
  if (before.conversation_ended_webhook_url !== null && after.conversation_ended_webhook_url === null) {
    events.push(event('assistant.conversation_ended_webhook_cleared', before));
  }
  return events;
}

export function assistantDeleted(assistant: { id: number; user_id: number }): AssistantEvent {
  return event('assistant.deleted', assistant);
}
