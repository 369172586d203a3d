import { createVoiceplaneClient, type components, type VoiceplaneClient } from '@voiceplane/client';
import type { RuntimeConfig } from '@voiceplane/domain';

type Schemas = components['schemas'];

/**
 * One lifecycle report on the events route (`POST /api/runtime/calls/{id}/events`): the generated
 * body, whose `data` the OpenAPI document describes only in prose (transcript items, the end).
 */
export type CallEvent = Omit<Schemas['RuntimeEventBody'], 'data'> & { readonly data?: Record<string, unknown> };
export type InboundCall = Schemas['RuntimeInboundBody'];
export type ToolCallRequest = Omit<Schemas['RuntimeToolCallBody'], 'params'> & {
  readonly params: Record<string, unknown>;
};
export type KnowledgeSearch = Schemas['RuntimeKnowledgeSearchBody'];

// The runtime routes' answers are untyped in the OpenAPI document (`unknown`): these are their shapes.
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
 * The one place requests to the control plane are retried, as the fetch of the generated client:
 * network failures and timeouts, 5xx and 429, with backoff (every request of the agent is safe to
 * repeat: config reads, events with stable ids, tool calls with invocation ids, inbound lookups
 * with the provider's call id); any other answer is final.
 */
export function retryingFetch(policy: RetryPolicy): (request: Request) => Promise<Response> {
  return async (request) => {
    let delay = policy.firstDelayMs;
    for (let attempt = 1; ; attempt += 1) {
      let response: Response;
      try {
        response = await fetch(request.clone(), { signal: AbortSignal.timeout(policy.timeoutMs) });
      } catch (e) {
        if (attempt >= policy.attempts) throw e;
        await sleep(delay);
        delay *= 2;
        continue;
      }
      if ((response.status >= 500 || response.status === 429) && attempt < policy.attempts) {
        await response.body?.cancel().catch(() => undefined);
        await sleep(delay);
        delay *= 2;
        continue;
      }
      return response;
    }
  };
}

/** A 2xx answer's body, or the refusal as a `ControlPlaneError`. */
function settled<T>(what: string, result: { data?: unknown; error?: unknown; response: Response }): T {
  if (result.response.ok) return (result.data ?? null) as T;
  throw new ControlPlaneError(result.response.status, result.error ?? null, what);
}

/** The agent's only way to the control plane: the runtime routes through the generated client, with the runtime token. */
export class ControlPlane {
  private readonly api: VoiceplaneClient;

  constructor(baseUrl: string, token: string, retry: RetryPolicy = DEFAULT_RETRY) {
    this.api = createVoiceplaneClient({ baseUrl, apiKey: token, fetch: retryingFetch(retry) });
  }

  async callConfig(callId: number): Promise<RuntimeConfig> {
    const result = await this.api.GET('/api/runtime/calls/{id}/config', {
      params: { path: { id: String(callId) } },
    });
    return settled<{ config: RuntimeConfig }>(`GET /api/runtime/calls/${callId}/config`, result).config;
  }

  /** 404: no active assistant answers that number; 402: the account's balance is too low. */
  async acceptInbound(call: InboundCall): Promise<{ callId: number; config: RuntimeConfig }> {
    const result = await this.api.POST('/api/runtime/calls/inbound', { body: call });
    const body = settled<{ call_id: number; config: RuntimeConfig }>('POST /api/runtime/calls/inbound', result);
    return { callId: body.call_id, config: body.config };
  }

  async report(callId: number, event: CallEvent): Promise<void> {
    const result = await this.api.POST('/api/runtime/calls/{id}/events', {
      params: { path: { id: String(callId) } },
      body: event as Schemas['RuntimeEventBody'],
    });
    settled(`POST /api/runtime/calls/${callId}/events`, result);
  }

  /** The gateway's answer; a refusal (ended call, unknown tool) becomes a failed result the model reads. */
  async callTool(request: ToolCallRequest): Promise<ToolResult> {
    try {
      const result = await this.api.POST('/api/runtime/tool-calls', {
        body: request as Schemas['RuntimeToolCallBody'],
      });
      return settled<ToolResult>('POST /api/runtime/tool-calls', result);
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
      const result = await this.api.POST('/api/runtime/calls/{id}/do-not-call', {
        params: { path: { id: String(callId) } },
      });
      settled(`POST /api/runtime/calls/${callId}/do-not-call`, result);
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
  async searchKnowledge(request: KnowledgeSearch): Promise<KnowledgePassage[]> {
    try {
      const result = await this.api.POST('/api/runtime/knowledge-searches', { body: request });
      return settled<{ passages: KnowledgePassage[] }>('POST /api/runtime/knowledge-searches', result).passages;
    } catch (e) {
      if (!(e instanceof ControlPlaneError)) throw e;
      return [];
    }
  }
}
