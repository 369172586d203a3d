import { PostCallField } from '@voiceplane/domain';
import { ToolFunction } from './tool-functions';

/** One turn of a conversation as the evaluator reads it. */
export interface ConversationTurn {
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: string;
}

/** A function call the model asked for; `arguments` is the JSON text it wrote. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** A message of the conversation the model reads, in the Chat Completions roles. */
export type ChatMessage =
  | { readonly role: 'system' | 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

export interface ModelTurnRequest {
  /** Empty: the generator's configured model. */
  readonly model: string;
  readonly temperature: number;
  /** The instructions first, then the conversation, oldest first. */
  readonly messages: readonly ChatMessage[];
  /** Functions the model may call; none: it can only answer. */
  readonly tools: readonly ToolFunction[];
  /**
   * Given: the answer's text is handed over piece by piece as the model writes it (streamed), and
   * the whole answer is still what `nextTurn` resolves to. A piece may be whitespace only.
   */
  readonly onText?: (delta: string) => void;
}

/** What the model said next: text, function calls, or both (either may be empty). */
export interface ModelTurn {
  readonly content: string | null;
  readonly toolCalls: readonly ModelToolCall[];
}

export interface ConversationEvaluationRequest {
  readonly model: string;
  /** The assistant's `post_call_schema`: what to extract besides `status` and `summary`. */
  readonly schema: readonly PostCallField[];
  /** Oldest first. */
  readonly transcript: readonly ConversationTurn[];
}

/** The assistant's language model (an LLM behind an OpenAI-compatible API, or the sandbox). */
export interface ReplyGenerator {
  /** The model's next turn of a conversation. Throws when the model cannot be reached or answers an error. */
  nextTurn(request: ModelTurnRequest): Promise<ModelTurn>;
  /**
   * A finished conversation read against the schema: an object with the schema's field names,
   * `status` (did the conversation reach its goal) and `summary`. Throws when it cannot tell.
   */
  evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>>;
}
