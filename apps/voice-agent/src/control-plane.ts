import type { RuntimeConfig } from '@voiceplane/domain';

/** One lifecycle report on the events route (`POST /api/runtime/calls/{id}/events`). */
export interface CallEvent {
  readonly event_id: string;
  readonly type: 'ringing' | 'answered' | 'transcript' | 'ended';
  readonly occurred_at: string;
  readonly data?: Record<string, unknown>;
}

export interface ToolResult {
  readonly ok: boolean;
  readonly content: string;
  readonly error: string | null;
}

/** One passage of the knowledge base as the runtime search answers it, best first. */
export interface KnowledgePassage {
  readonly rank: number;
  readonly document_id: number;
  readonly document: string;
  readonly position: number;
  readonly content: string;
  readonly score: number;
}

export class ControlPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

export interface RetryPolicy {
  readonly attempts: number;
  /** Milliseconds before the second attempt; doubles after each. */
  readonly firstDelayMs: number;
  readonly timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, firstDelayMs: 250, timeoutMs: 10_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The agent's only way to the control plane: the runtime routes, with the runtime token. Network
 * failures, 5xx and 429 are retried with backoff (every request here is safe to repeat: config
 * reads, events with stable ids, tool calls with invocation ids, inbound lookups with the
 * provider's call id); any other answer is final.
 */
export class ControlPlane {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  async callConfig(callId: number): Promise<RuntimeConfig> {
    const body = await this.send<{ config: RuntimeConfig }>('GET', `/api/runtime/calls/${callId}/config`);
    return body.config;
  }

  /** 404: no active assistant answers that number; 402: the account's balance is too low. */
  async acceptInbound(call: {
    to: string;
    from: string;
    trunk_id?: string;
    provider_call_id?: string;
  }): Promise<{ callId: number; config: RuntimeConfig }> {
    const body = await this.send<{ call_id: number; config: RuntimeConfig }>(
      'POST',
      '/api/runtime/calls/inbound',
      call,
    );
    return { callId: body.call_id, config: body.config };
  }

  async report(callId: number, event: CallEvent): Promise<void> {
    await this.send('POST', `/api/runtime/calls/${callId}/events`, event);
  }

  /** The gateway's answer; a refusal (ended call, unknown tool) becomes a failed result the model reads. */
  async callTool(request: {
    call_id: number;
    tool_id: number;
    params: Record<string, unknown>;
    invocation_id: string;
  }): Promise<ToolResult> {
    try {
      return await this.send<ToolResult>('POST', '/api/runtime/tool-calls', request);
    } catch (e) {
      if (!(e instanceof ControlPlaneError)) throw e;
      return {
        ok: false,
        error: 'tool_unavailable',
        content: JSON.stringify({ error: 'tool_unavailable', status: e.status }),
      };
    }
  }

  /**
   * The call's customer asked not to be called again: their number joins the account's
   * do-not-call list (adding a listed number again changes nothing, so a retry is safe). False
   * when the control plane refused it; the conversation goes on either way.
   */
  async optOut(callId: number): Promise<boolean> {
    try {
      await this.send('POST', `/api/runtime/calls/${callId}/do-not-call`);
      return true;
    } catch (e) {
      if (!(e instanceof ControlPlaneError)) throw e;
      return false;
    }
  }

  /**
   * The passages of the call's knowledge base for `query`; the control plane logs the search on
   * the call. A refusal (ended call, no such knowledge base) reads as nothing found: the
   * conversation goes on without passages.
   */
  async searchKnowledge(request: {
    call_id: number;
    query: string;
    mode: 'prompt' | 'function_call';
    knowledgebase_id: number;
  }): Promise<KnowledgePassage[]> {
    try {
      return (await this.send<{ passages: KnowledgePassage[] }>('POST', '/api/runtime/knowledge-searches', request))
        .passages;
    } catch (e) {
      if (!(e instanceof ControlPlaneError)) throw e;
      return [];
    }
  }

  private async send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let delay = this.retry.firstDelayMs;
    for (let attempt = 1; ; attempt += 1) {
      let status: number;
      let answer: unknown;
      try {
        const res = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.token}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.retry.timeoutMs),
        });
        status = res.status;
        const text = await res.text();
        answer = text === '' ? null : JSON.parse(text);
      } catch (e) {
        if (attempt >= this.retry.attempts) throw e;
        await sleep(delay);
        delay *= 2;
        continue;
      }
      if (status >= 200 && status < 300) return answer as T;
      if ((status >= 500 || status === 429) && attempt < this.retry.attempts) {
        await sleep(delay);
        delay *= 2;
        continue;
      }
      throw new ControlPlaneError(status, answer, `${method} ${path}`);
    }
  }
}
