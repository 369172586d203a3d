import axios from 'axios';
import { ConversationTurn, ReplyGenerator, ReplyRequest } from '@voiceplane/application';
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
  private readonly url: string;

  constructor(private readonly options: OpenAiOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async generateReply(request: ReplyRequest): Promise<string> {
    const systemPrompt = substitute(request.systemPrompt, { variables: new Map(Object.entries(request.variables)), params: null }, (v) => v, newSubstitutionLog());
    const messages: ConversationTurn[] = [...(systemPrompt.trim() === '' ? [] : [{ role: 'system' as const, content: systemPrompt }]), ...request.history];
    let response;
    try {
      response = await axios.post<string>(this.url, JSON.stringify({ model: request.model || this.options.defaultModel, temperature: request.temperature, messages }), {
        headers: { Authorization: `Bearer ${this.options.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        maxRedirects: 0,
        responseType: 'text',
        transformResponse: (data: string) => data,
        validateStatus: () => true,
      });
    } catch (e) {
      // axios errors carry the request config, API key included: only the reason leaves.
      const reason = axios.isAxiosError(e) && (e.code === 'ERR_CANCELED' || e.name === 'CanceledError') ? 'timed out' : 'could not be reached';
      throw new ReplyGeneratorError(`The reply generator ${reason}`);
    }
    const body = parseJson(response.data);
    if (response.status < 200 || response.status > 299) {
      const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
      throw new ReplyGeneratorError(`The reply generator answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`);
    }
    const content = (body as Completion | null)?.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') throw new ReplyGeneratorError('The reply generator answered without a reply');
    return content.trim();
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
