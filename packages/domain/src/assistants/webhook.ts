/**
 * The assistant webhook state machine (spec "Assistant webhook"):
 * active (`is_webhook_active` true, URL set) ↔ inactive (`is_webhook_active` false, URL null).
 * Leaving `active` raises `assistant.webhook_disabled` so pending post-call deliveries are
 * canceled; clearing the conversation-ended URL raises its own event for the same reason.
 */

export interface WebhookState {
  readonly isWebhookActive: boolean;
  readonly webhookUrl: string | null;
}

export interface WebhookSubject extends WebhookState {
  readonly id: number;
  readonly userId: number;
  readonly conversationEndedWebhookUrl: string | null;
}

export const ASSISTANT_EVENTS = [
  'assistant.webhook_disabled',
  'assistant.conversation_ended_webhook_cleared',
  'assistant.deleted',
] as const;
export type AssistantEventName = (typeof ASSISTANT_EVENTS)[number];

export interface AssistantEvent {
  readonly name: AssistantEventName;
  readonly assistantId: number;
  readonly userId: number;
}

export interface WebhookTransition {
  readonly state: WebhookState;
  readonly events: AssistantEvent[];
}

const event = (name: AssistantEventName, a: { id: number; userId: number }): AssistantEvent => ({
  name,
  assistantId: a.id,
  userId: a.userId,
});

/** Idempotent: disabling an inactive webhook changes nothing and raises nothing. */
export function disableWebhook(subject: WebhookSubject): WebhookTransition {
  return {
    state: { isWebhookActive: false, webhookUrl: null },
    events: subject.isWebhookActive ? [event('assistant.webhook_disabled', subject)] : [],
  };
}

/** The URL must already have passed the write-time target check. */
export function enableWebhook(url: string): WebhookState {
  return { isWebhookActive: true, webhookUrl: url };
}

/** Events implied by an update that moved the webhooks from `before` to `after`. */
export function webhookEventsOf(
  before: WebhookSubject,
  after: Omit<WebhookSubject, 'id' | 'userId'>,
): AssistantEvent[] {
  const events: AssistantEvent[] = [];
  if (before.isWebhookActive && !after.isWebhookActive) events.push(event('assistant.webhook_disabled', before));
  if (before.conversationEndedWebhookUrl !== null && after.conversationEndedWebhookUrl === null) {
    events.push(event('assistant.conversation_ended_webhook_cleared', before));
  }
  return events;
}

export function assistantDeleted(assistant: { id: number; userId: number }): AssistantEvent {
  return event('assistant.deleted', assistant);
}

/** The assistant's other webhook addresses: inbound calls' post-call body, and chat conversations' end. */
export type WebhookTarget = 'inbound' | 'conversation_ended';

/**
 * Events of setting one of those addresses (`null` clears it): clearing the conversation-ended address
 * cancels its pending deliveries. Inbound deliveries are post-call deliveries, which only switching the
 * post-call webhook off cancels.
 */
export function webhookUrlEvents(subject: WebhookSubject, target: WebhookTarget, url: string | null): AssistantEvent[] {
  const cleared = target === 'conversation_ended' && url === null && subject.conversationEndedWebhookUrl !== null;
  return cleared ? [event('assistant.conversation_ended_webhook_cleared', subject)] : [];
}
