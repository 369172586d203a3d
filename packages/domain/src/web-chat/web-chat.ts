import { canAfford, LedgerPosting } from '../billing/ledger';
import { fromUnits, toUnits } from '../billing/money';
import { err, ok, Result } from '../common/result';
import { Conversation, ConversationType } from '../conversations/conversation';
import { ConversationMessage, FunctionCallRecord, roleOfSource } from '../conversations/message';

/** The types the chatbot's create route takes: `widget` is billed, `test` is free for its owner. */
export const CHATBOT_TYPES = ['widget', 'test'] as const;
export type ChatbotType = (typeof CHATBOT_TYPES)[number];

/** Conversations held over the web: the chatbot's two types and the external channel's. */
export type WebChatType = Exclude<ConversationType, 'chatapp'>;

/** The longest user message a web chat takes, in characters. */
export const WEB_CHAT_MESSAGE_MAX = 2000;
/** The longest customer identifier of an external conversation. */
export const CUSTOMER_IDENTIFIER_MAX = 255;

/** The conversation list's `type` filter in the public reference's words, and the type each means here. */
export const LISTED_CONVERSATION_TYPES = {
  test: 'test',
  widget: 'widget',
  whatsapp: 'chatapp',
  api: 'external',
} as const satisfies Record<string, ConversationType>;
export type ListedConversationType = keyof typeof LISTED_CONVERSATION_TYPES;

export const isWebChat = (conversation: Pick<Conversation, 'type'>): boolean => conversation.type !== 'chatapp';

/** What one user message costs: the freeform message price, except in a `test` chat. */
export function messagePrice(type: WebChatType, freeformPrice: number): number {
  return type === 'test' ? 0 : freeformPrice;
}

export type UserMessageRefusal =
  | { readonly code: 'conversation_not_found' }
  | { readonly code: 'insufficient_balance' };

/** What a user message sets off: whether the assistant answers it, and what it costs. */
export interface UserMessagePlan {
  readonly reply: boolean;
  readonly charge: number;
}

/**
 * Decided under the account's balance lock: only a web chat takes user messages here (a chat-app
 * conversation is another channel's); a message the assistant will answer costs the message price,
 * which the balance must cover; after a human took over (AI off) the message is only stored, free.
 */
export function planUserMessage(
  conversation: Pick<Conversation, 'type' | 'aiEnabled'>,
  balance: number,
  freeformPrice: number,
): Result<UserMessagePlan, UserMessageRefusal> {
  if (conversation.type === 'chatapp') return err({ code: 'conversation_not_found' });
  const reply = conversation.aiEnabled;
  const charge = reply ? messagePrice(conversation.type, freeformPrice) : 0;
  if (charge > 0 && !canAfford(balance, charge)) return err({ code: 'insufficient_balance' });
  return ok({ reply, charge });
}

/** A new chat's balance check: a billed chat is refused up front when its first message could not be paid. */
export function canStartChat(type: WebChatType, balance: number, freeformPrice: number): boolean {
  const price = messagePrice(type, freeformPrice);
  return price === 0 || canAfford(balance, price);
}

/** The variables of an external conversation after a request: the request's win, the rest stay. */
export function mergeVariables(
  current: Readonly<Record<string, string>> | null,
  given: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return { ...(current ?? {}), ...(given ?? {}) };
}

/** A function the model called, as the conversation policy reports it. */
export interface CalledFunction {
  readonly name: string;
  readonly kind: string;
  readonly arguments: unknown;
  /** What the model read back (JSON text, usually). */
  readonly content: string;
}

/** The `function_calls` of a reply: every function that ran, its arguments and what it answered (JSON when it was JSON). */
export function functionCallsOf(calls: readonly CalledFunction[]): FunctionCallRecord[] {
  return calls
    .filter((c) => c.kind !== 'unknown')
    .map((c) => ({ name: c.name, arguments: c.arguments ?? {}, result: jsonOrText(c.content) }));
}

function jsonOrText(content: string): unknown {
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return content;
  }
}

export interface ChatHistoryItem {
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly function_calls?: readonly FunctionCallRecord[];
}

/** A web chat's history as the chatbot routes show it: oldest first, `function_calls` only where a reply called some. */
export function chatHistory(messages: readonly ConversationMessage[]): ChatHistoryItem[] {
  return messages.flatMap((m): ChatHistoryItem[] => {
    const role = roleOfSource(m.source);
    if (role === 'system') return [];
    const calls = m.functionCalls ?? [];
    return [
      calls.length > 0 ? { role, content: m.body ?? '', function_calls: calls } : { role, content: m.body ?? '' },
    ];
  });
}

/** A charged message given back (its reply never came): a positive adjustment of the same amount. */
export function refundPosting(balance: number, amount: number): LedgerPosting {
  const after = toUnits(balance) + toUnits(amount);
  return { type: 'adjustment', amount: fromUnits(toUnits(amount)), balanceAfter: fromUnits(after) };
}
