import type { OutboundRequest } from '@voiceplane/application';

export interface HeaderSources {
  readonly userAgent: string;
  readonly eventType?: string;
  readonly headers?: OutboundRequest['headers'];
  readonly signing?: { readonly webhookId: string; readonly timestamp: number; readonly signature: string };
  /** Null when the request carries no body and needs no length. */
  readonly contentLength: number | null;
}

// The client owns the connection and the message framing: a caller's value for these could
// desynchronise the body from its length, poison a keep-alive socket or redirect SNI.
const CLIENT_OWNED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

/**
 * The header set of one attempt, in sending order: User-Agent, X-Voiceplane-Event, the caller's
 * headers (a later name replaces an earlier one, case-insensitively), then signature and length,
 * which always win.
 */
export function outboundHeaders(sources: HeaderSources): Record<string, string> {
  const byName = new Map<string, readonly [string, string]>();
  const put = (name: string, value: string): void => {
    byName.set(name.toLowerCase(), [name, value]);
  };

  put('User-Agent', sources.userAgent);
  if (sources.eventType !== undefined) put('X-Voiceplane-Event', sources.eventType);
  for (const { name, value } of sources.headers ?? []) {
    if (!CLIENT_OWNED.has(name.toLowerCase())) put(name, value);
  }
  if (sources.signing) {
    put('webhook-id', sources.signing.webhookId);
    put('webhook-timestamp', String(sources.signing.timestamp));
    put('webhook-signature', sources.signing.signature);
  }
  if (sources.contentLength !== null) put('Content-Length', String(sources.contentLength));

  const headers: Record<string, string> = {};
  for (const [name, value] of byName.values()) headers[name] = value;
  return headers;
}
