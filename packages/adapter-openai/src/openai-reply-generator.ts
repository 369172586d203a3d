import { AxiosInstance } from 'axios';
import { openAiHttp, postJson } from './openai-http';
import { streamCompletion } from './openai-stream';
import {
  ChatMessage,
  ConversationEvaluationRequest,
  ModelToolCall,
  ModelTurn,
  ModelTurnRequest,
  ReplyGenerator,
} from '@voiceplane/application';

export interface OpenAiOptions {
  /** OPENAI_BASE_URL, e.g. `https://api.openai.com/v1`: any server speaking the Chat Completions API. */
  readonly baseUrl: string;
  /** OPENAI_API_KEY, sent as a Bearer token. */
  readonly apiKey: string;
  /** OPENAI_MODEL: used when the request names no model. */
  readonly defaultModel: string;
  /** Per request (default 30 s: a long answer takes a while to generate). */
  readonly timeoutMs?: number;
}

interface CompletionMessage {
  readonly content?: unknown;
  readonly tool_calls?: unknown;
}

export class ReplyGeneratorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyGeneratorError';
  }
}

/**
 * The assistant's language model behind an OpenAI-compatible Chat Completions API (OpenAI itself,
 * or any local server speaking it). The conversation policy composes the messages and functions;
 * this only speaks the wire format. Every failure throws: the caller decides what the customer gets
 * rather than sending something made up.
 */
export class OpenAiReplyGenerator implements ReplyGenerator {
  private readonly http: AxiosInstance;

  constructor(private readonly options: OpenAiOptions) {
    this.http = openAiHttp(options.baseUrl, options.apiKey, options.timeoutMs ?? 30_000);
  }

  /** Streamed (`stream: true`) when the caller takes the text piece by piece; the whole turn either way. */
  async nextTurn(request: ModelTurnRequest): Promise<ModelTurn> {
    const payload = {
      model: request.model || this.options.defaultModel,
      temperature: request.temperature,
      messages: request.messages.map(wireMessage),
      ...(request.tools.length > 0 ? { tools: request.tools.map((fn) => ({ type: 'function', function: fn })) } : {}),
    };
    const message: CompletionMessage = request.onText
      ? await streamCompletion(this.http, payload, {
          onText: request.onText,
          timeoutMs: this.options.timeoutMs ?? 30_000,
          who: 'The reply generator',
          fail: (reason) => new ReplyGeneratorError(reason),
        })
      : await this.complete(payload);
    const toolCalls = toolCallsOf(message.tool_calls);
    const content =
      typeof message.content === 'string' && message.content.trim() !== '' ? message.content.trim() : null;
    if (content === null && toolCalls.length === 0)
      throw new ReplyGeneratorError('The reply generator answered without a reply');
    return { content, toolCalls };
  }

  /**
   * The transcript goes in as one user message under an instruction naming the fields; the model
   * is asked for a JSON object (`response_format: json_object`), at temperature 0 so two reads of
   * one conversation agree. Anything but a JSON object throws.
   */
  async evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>> {
    const fields = request.schema.map((f) => `- "${f.name}" (${f.type})${f.description ? `: ${f.description}` : ''}`);
    const instruction = [
      'You read a finished conversation (a chat or a phone call) between a business assistant and a customer and answer with one JSON object only.',
      'Keys: "status" (boolean: did the conversation reach its goal), "summary" (string: one or two sentences)' +
        (fields.length > 0 ? ', and these fields (null when the conversation does not tell):' : '.'),
      ...fields,
    ].join('\n');
    const transcript = request.transcript.map((t) => `${TRANSCRIPT_LABELS[t.role]}: ${t.content}`).join('\n');
    const answer = await this.complete({
      model: request.model || this.options.defaultModel,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: instruction },
        { role: 'user', content: transcript },
      ],
    });
    const content = typeof answer.content === 'string' ? answer.content.trim() : '';
    if (content === '') throw new ReplyGeneratorError('The reply generator answered without a reply');
    let evaluated: unknown;
    try {
      evaluated = JSON.parse(content);
    } catch {
      throw new ReplyGeneratorError('The reply generator answered the evaluation without JSON');
    }
    if (typeof evaluated !== 'object' || evaluated === null || Array.isArray(evaluated))
      throw new ReplyGeneratorError('The reply generator answered the evaluation without a JSON object');
    return evaluated as Record<string, unknown>;
  }

  /** One Chat Completions call; the first choice's message. */
  private async complete(payload: object): Promise<CompletionMessage> {
    const body = await postJson(
      this.http,
      'chat/completions',
      payload,
      'The reply generator',
      (reason) => new ReplyGeneratorError(reason),
    );
    const message = (body as { choices?: readonly { message?: unknown }[] } | null)?.choices?.[0]?.message;
    if (typeof message !== 'object' || message === null)
      throw new ReplyGeneratorError('The reply generator answered without a reply');
    return message as CompletionMessage;
  }
}

function wireMessage(message: ChatMessage): object {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

/**
 * The function calls of an answer. A call without a name is dropped; one without an id gets one,
 * so its result can still be sent back (some local servers leave ids out).
 */
function toolCallsOf(raw: unknown): ModelToolCall[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown, index): ModelToolCall[] => {
    const fn = (item as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    if (typeof fn?.name !== 'string' || fn.name === '') return [];
    const id = (item as { id?: unknown }).id;
    const args =
      typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments);
    return [{ id: typeof id === 'string' && id !== '' ? id : `call_${index}`, name: fn.name, arguments: args }];
  });
}

const TRANSCRIPT_LABELS = { user: 'Customer', assistant: 'Assistant', system: 'System' } as const;
