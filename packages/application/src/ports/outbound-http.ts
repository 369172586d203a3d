/**
 * The one way voiceplane sends HTTP to an address a user gave it (tools, webhooks, automation
 * steps, media fetches). The adapter enforces the outbound policy.
 */
export type OutboundError = 'http_error' | 'timeout' | 'blocked_target' | 'connection_failed' | 'response_too_large';

export interface OutboundSigning {
  /** Account signing secrets (`whsec_…`), newest first; two during a rotation grace period. */
  readonly secrets: readonly string[];
  /** `webhook-id` header value (`msg_…`, `tcl_…`). */
  readonly webhookId: string;
}

export interface OutboundRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  /** Ordered header list; later entries with the same name replace earlier ones. */
  readonly headers?: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** Exact bytes to send (and to sign). */
  readonly body?: string;
  readonly timeoutMs: number;
  /** Also hand back the body's exact bytes (`OutboundResponse.bytes`), for binary answers such as media. */
  readonly keepBytes?: boolean;
  /** Read cap; more → `response_too_large`. Default 1 MB. */
  readonly maxResponseBytes?: number;
  /** `X-Voiceplane-Event` header value. */
  readonly eventType?: string;
  readonly signing?: OutboundSigning;
}

export interface OutboundResponse {
  /** True for a 2xx answer. */
  readonly ok: boolean;
  /** Null when no HTTP answer was received. */
  readonly statusCode: number | null;
  readonly headers: Readonly<Record<string, string>>;
  /** Response body decoded as UTF-8 (empty when none). */
  readonly body: string;
  /** The body's exact bytes, when the request asked to keep them (`keepBytes`). */
  readonly bytes?: Uint8Array;
  readonly durationMs: number;
  /** Null on 2xx. */
  readonly error: OutboundError | null;
}

export interface OutboundHttpClient {
  send(request: OutboundRequest): Promise<OutboundResponse>;
}
