import axios, { AxiosInstance } from 'axios';
import { ConversationEvaluationRequest, ConversationTurn, ReplyGenerator, ReplyRequest } from '@voiceplane/application';
import { newSubstitutionLog, substitute } from '@voiceplane/domain';

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

interface Completion {
  readonly choices?: readonly { readonly message?: { readonly content?: unknown } }[];
}

export class ReplyGeneratorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyGeneratorError';
  }
}

/**
 * The assistant's answer from an OpenAI-compatible Chat Completions API. The system prompt gets
 * the assistant's `{{variables}}` the way tool requests get theirs (one pass, unknown names become
 * empty), then the conversation follows oldest first. Every failure throws: the caller stores the
 * reply as failed rather than sending something made up.
 */
export class OpenAiReplyGenerator implements ReplyGenerator {
  private readonly http: AxiosInstance;

  constructor(private readonly options: OpenAiOptions) {
    // Every status comes back as a response with its body as text: the API's error document is read
    // below, and a redirect (a misconfigured base URL) is an answer, not a hop with the key.
    this.http = axios.create({
      baseURL: `${options.baseUrl.replace(/\/+$/, '')}/`,
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      timeout: options.timeoutMs ?? 30_000,
      maxRedirects: 0,
      responseType: 'text',
      transformResponse: (data: string) => data,
      validateStatus: () => true,
    });
  }

  async generateReply(request: ReplyRequest): Promise<string> {
    const systemPrompt = substitute(request.systemPrompt, { variables: new Map(Object.entries(request.variables)), params: null }, (v) => v, newSubstitutionLog());
    const messages: ConversationTurn[] = [...(systemPrompt.trim() === '' ? [] : [{ role: 'system' as const, content: systemPrompt }]), ...request.history];
    return this.complete({ model: request.model || this.options.defaultModel, temperature: request.temperature, messages });
  }

  /**
   * The transcript goes in as one user message under an instruction naming the fields; the model
   * is asked for a JSON object (`response_format: json_object`), at temperature 0 so two reads of
   * one conversation agree. Anything but a JSON object throws.
   */
  async evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>> {
    const fields = request.schema.map((f) => `- "${f.name}" (${f.type})${f.description ? `: ${f.description}` : ''}`);
    const instruction = [
      'You read a finished chat conversation between a business assistant and a customer and answer with one JSON object only.',
      'Keys: "status" (boolean: did the conversation reach its goal), "summary" (string: one or two sentences)'
        + (fields.length > 0 ? ', and these fields (null when the conversation does not tell):' : '.'),
      ...fields,
    ].join('\n');
    const transcript = request.transcript.map((t) => `${TRANSCRIPT_LABELS[t.role]}: ${t.content}`).join('\n');
    const content = await this.complete({
      model: request.model || this.options.defaultModel, temperature: 0, response_format: { type: 'json_object' },
      messages: [{ role: 'system', content: instruction }, { role: 'user', content: transcript }],
    });
    let evaluated: unknown;
    try {
      evaluated = JSON.parse(content);
    } catch {
      throw new ReplyGeneratorError('The reply generator answered the evaluation without JSON');
    }
    if (typeof evaluated !== 'object' || evaluated === null || Array.isArray(evaluated)) throw new ReplyGeneratorError('The reply generator answered the evaluation without a JSON object');
    return evaluated as Record<string, unknown>;
  }

  /** One Chat Completions call; the first choice's text, trimmed. */
  private async complete(payload: object): Promise<string> {
    const response = await this.http.post<string>('chat/completions', JSON.stringify(payload)).catch((e: unknown) => {
      // axios errors carry the request config, API key included: only the reason leaves.
      throw new ReplyGeneratorError(`The reply generator ${axios.isAxiosError(e) && e.code === 'ECONNABORTED' ? 'timed out' : 'could not be reached'}`);
    });
    let body: unknown = null;
    try {
      body = response.data ? JSON.parse(response.data) : null;
    } catch {
      // Not JSON: the status says enough, or the reply is missing.
    }
    if (response.status < 200 || response.status > 299) {
      const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
      throw new ReplyGeneratorError(`The reply generator answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`);
    }
    const content = (body as Completion | null)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new ReplyGeneratorError('The reply generator answered without a reply');
    return content.trim();
  }
}

const TRANSCRIPT_LABELS = { user: 'Customer', assistant: 'Assistant', system: 'System' } as const;
