import { err, ok, Result } from '../common/result';
import { Conversation } from './conversation';

/**
 * End on inactivity: an open conversation with no message in either direction
 * for the assistant's `conversation_inactivity_timeout` minutes ends.
 */
export const DEFAULT_INACTIVITY_TIMEOUT_MINUTES = 30;

/** The assistant's timeout, or 30 minutes when the conversation has no assistant. */
export function inactivityTimeoutMinutes(assistant: { readonly conversationInactivityTimeout: number } | null): number {
  return assistant?.conversationInactivityTimeout ?? DEFAULT_INACTIVITY_TIMEOUT_MINUTES;
}

/** When the conversation ends if nothing else happens; null once ended. Counted from the last message (creation when none). */
export function inactivityDeadline(
  conversation: Pick<Conversation, 'status' | 'lastMessageAt' | 'createdAt'>,
  timeoutMinutes: number,
): Date | null {
  if (conversation.status !== 'open') return null;
  const since = conversation.lastMessageAt ?? conversation.createdAt;
  return new Date(since.getTime() + timeoutMinutes * 60_000);
}

/** The assistant's conversation-ended webhook settings; null when the conversation has no assistant. */
export interface ConversationEndedWebhook {
  readonly url: string | null;
  readonly retrigger: boolean;
}

export type ConversationEndedEvent = {
  readonly type: 'conversation_ended';
  readonly at: Date;
  readonly endedCount: number;
  /** Whether a `conversation_ended` webhook event is created for this end. */
  readonly notifyWebhook: boolean;
};

export type InactivityEndRefusal =
  | { readonly code: 'not_open' }
  | { readonly code: 'not_due'; readonly deadline: Date };

export function endOnInactivity(
  conversation: Conversation,
  now: Date,
  timeoutMinutes: number,
  webhook: ConversationEndedWebhook | null,
): Result<{ next: Conversation; events: readonly ConversationEndedEvent[] }, InactivityEndRefusal> {
  const deadline = inactivityDeadline(conversation, timeoutMinutes);
  if (deadline === null) return err({ code: 'not_open' });
  if (now.getTime() < deadline.getTime()) return err({ code: 'not_due', deadline });
  const endedCount = conversation.endedCount + 1;
  // Only the first end notifies unless the assistant asks for every end.
  const notifyWebhook = webhook !== null && webhook.url !== null && (endedCount === 1 || webhook.retrigger);
  return ok({
    next: { ...conversation, status: 'ended', endedAt: now, endedCount, updatedAt: now },
    events: [{ type: 'conversation_ended', at: now, endedCount, notifyWebhook }],
  });
}
