import { Conversation } from './conversation';

/**
 * AI takeover: a human switches AI replies off and on. Ownership is decided when
 * the conversation is loaded; both operations are idempotent (same 200 body, nothing changes).
 */
export type AiToggleEvent =
  | { readonly type: 'ai_disabled'; readonly at: Date }
  | { readonly type: 'ai_enabled'; readonly at: Date };

export interface AiToggleChange {
  readonly next: Conversation;
  readonly events: readonly AiToggleEvent[];
}

export function disableAi(conversation: Conversation, now: Date): AiToggleChange {
  if (!conversation.aiEnabled) return { next: conversation, events: [] };
  return {
    next: { ...conversation, aiEnabled: false, aiDisabledAt: now, updatedAt: now },
    events: [{ type: 'ai_disabled', at: now }],
  };
}

export function enableAi(conversation: Conversation, now: Date): AiToggleChange {
  if (conversation.aiEnabled) return { next: conversation, events: [] };
  return {
    next: { ...conversation, aiEnabled: true, aiDisabledAt: null, aiEnabledAt: now, updatedAt: now },
    events: [{ type: 'ai_enabled', at: now }],
  };
}

/** The sender's assistant as far as replying goes. */
export interface ReplyingAssistant {
  readonly status: 'active' | 'inactive';
  readonly complianceBlocked: boolean;
}

/** Why an inbound customer message gets no AI reply (the sandbox inbound message answer's `ai_reply_skipped`). */
export type AiReplySkip = 'ai_disabled' | 'no_assistant' | 'assistant_inactive' | 'assistant_blocked';

/** Null when an inbound customer message gets an AI reply generated; else why it is only stored. */
export function aiReplySkip(
  conversation: Pick<Conversation, 'aiEnabled'>,
  assistant: ReplyingAssistant | null,
): AiReplySkip | null {
  if (!conversation.aiEnabled) return 'ai_disabled';
  if (assistant === null) return 'no_assistant';
  if (assistant.status !== 'active') return 'assistant_inactive';
  if (assistant.complianceBlocked) return 'assistant_blocked';
  return null;
}

/** Whether an inbound customer message gets an AI reply generated, or is only stored. */
export function shouldGenerateAiReply(
  conversation: Pick<Conversation, 'aiEnabled'>,
  assistant: ReplyingAssistant | null,
): boolean {
  return aiReplySkip(conversation, assistant) === null;
}

/**
 * What becomes of a generated reply, judged on the conversation as it is when the reply is ready
 * to send. Discarded when AI was switched off meanwhile, and also when it was
 * switched off and on again since the customer's message: enable-ai answers only later messages.
 */
export function aiReplyFate(
  conversation: Pick<Conversation, 'aiEnabled' | 'aiEnabledAt'>,
  customerMessageAt: Date,
): 'send' | 'discard' {
  if (!conversation.aiEnabled) return 'discard';
  if (conversation.aiEnabledAt !== null && customerMessageAt.getTime() < conversation.aiEnabledAt.getTime())
    return 'discard';
  return 'send';
}
