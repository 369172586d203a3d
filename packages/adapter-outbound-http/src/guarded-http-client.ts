import { promises as dns } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Clock, OutboundHttpClient, OutboundRequest, OutboundResponse } from '@voiceplane/application';
import { checkParsedTargetUrl, isBlockedAddress, type TargetUrlPolicy } from '@voiceplane/domain';
import { exchange, failedBeforeSending, type ExchangeResult } from './http-exchange';
import { outboundHeaders } from './outbound-headers';
import { pinnedLookup } from './pinned-lookup';
import { webhookSignature } from './webhook-signature';

/** The shape of pino's `warn`, so the app can pass its logger unchanged. */
export interface OutboundLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface GuardedHttpClientOptions {
  /** `voiceplane/<server version>`. */
  readonly userAgent: string;
  /** Development only (`ALLOW_PRIVATE_TARGETS=1`): skips the address and host-name checks. */
  readonly allowPrivateTargets: boolean;
  readonly requireHttps: boolean;
  /** Host name → addresses. Defaults to the system resolver (getaddrinfo, so /etc/hosts counts). */
  readonly resolve?: (host: string) => Promise<readonly string[]>;
  readonly logger?: OutboundLogger;
  readonly clock?: Clock;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

// Many servers drop idle keep-alive connections after 5 s; reusing one in that instant fails the
// request with ECONNRESET, so idle sockets are given up a little earlier. LIFO keeps a warm few in
// use and lets the rest of a burst's sockets age out.
const AGENT_OPTIONS = { keepAlive: true, scheduling: 'lifo', timeout: 4_000 } as const;

const systemClock: Clock = { now: () => new Date() };

/**
 * The one client for user-supplied addresses. Built on node:http(s) rather than
 * axios on purpose: the bytes and headers that go out are signed, so nothing may add defaults or
 * transform the body; the socket must be pinned to the address that was checked; the answer is
 * counted as a stream; and on the mid-call tool path axios' config merging and interceptor chain
 * would only add latency.
 */
export class GuardedHttpClient implements OutboundHttpClient {
  private readonly policy: TargetUrlPolicy;
  private readonly resolve: (host: string) => Promise<readonly string[]>;
  private readonly clock: Clock;
  private readonly httpAgent = new HttpAgent(AGENT_OPTIONS);
  private readonly httpsAgent = new HttpsAgent(AGENT_OPTIONS);

  constructor(private readonly options: GuardedHttpClientOptions) {
    this.policy = { requireHttps: options.requireHttps, allowPrivate: options.allowPrivateTargets };
    this.resolve = options.resolve ?? resolveWithSystem;
    this.clock = options.clock ?? systemClock;
  }

  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const startedAt = performance.now();
    const result = await this.attempt(request, startedAt);
    return { ...result, durationMs: Math.round(performance.now() - startedAt) };
  }

  /** Closes idle keep-alive sockets (shutdown, tests). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async attempt(request: OutboundRequest, startedAt: number): Promise<ExchangeResult> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failedBeforeSending('connection_failed');
    }
    const verdict = checkParsedTargetUrl(url, this.policy);
    if (!verdict.ok) return this.refuse(url.hostname, verdict.reason);

    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = isIP(host) ? [host] : await this.resolveWithin(host, request.timeoutMs);
    if (addresses === 'timeout') return failedBeforeSending('timeout');
    if (addresses === null || addresses.length === 0) return failedBeforeSending('connection_failed');
    if (!this.policy.allowPrivate && addresses.some(isBlockedAddress))
      return this.refuse(host, 'blocked_address', addresses);

    const budgetMs = request.timeoutMs - (performance.now() - startedAt);
    if (budgetMs <= 0) return failedBeforeSending('timeout');

    const bodyText = request.body ?? '';
    const body = request.body === undefined ? null : Buffer.from(bodyText, 'utf8');
    const secure = url.protocol === 'https:';
    return exchange(
      secure ? httpsRequest : httpRequest,
      {
        agent: secure ? this.httpsAgent : this.httpAgent,
        host,
        port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
        path: url.pathname + url.search,
        method: request.method,
        headers: outboundHeaders({
          userAgent: this.options.userAgent,
          eventType: request.eventType,
          headers: request.headers,
          signing: request.signing && this.sign(request.signing.secrets, request.signing.webhookId, bodyText),
          contentLength: contentLength(request.method, body),
        }),
        // Pooled sockets are keyed by host name, so a reused one was pinned by an earlier request
        // to an address that passed the same check.
        lookup: pinnedLookup(addresses),
      },
      body,
      budgetMs,
      request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      request.keepBytes === true,
    );
  }

  private sign(secrets: readonly string[], webhookId: string, body: string) {
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    return { webhookId, timestamp, signature: webhookSignature(secrets, webhookId, timestamp, body) };
  }

  /** DNS counts against the request's total budget; a lookup that never answers is a timeout. */
  private resolveWithin(host: string, budgetMs: number): Promise<readonly string[] | 'timeout' | null> {
    return new Promise((settle) => {
      const timer = setTimeout(() => settle('timeout'), budgetMs);
      // Started inside a promise so that a resolver which throws synchronously is a failed lookup too.
      Promise.resolve()
        .then(() => this.resolve(host))
        .then(
          (addresses) => settle(addresses),
          () => settle(null),
        )
        .finally(() => clearTimeout(timer));
    });
  }

  private refuse(host: string, reason: string, addresses?: readonly string[]): ExchangeResult {
    // Host only: paths and queries of user URLs often carry tokens.
    this.options.logger?.warn({ host, reason, addresses }, 'Outbound request refused by the target policy');
    return failedBeforeSending('blocked_target');
  }
}

/** A POST/PUT/PATCH without a body still says so (some servers answer 411 otherwise). */
function contentLength(method: OutboundRequest['method'], body: Buffer | null): number | null {
  if (body !== null) return body.length;
  return method === 'GET' || method === 'DELETE' ? null : 0;
}

async function resolveWithSystem(host: string): Promise<readonly string[]> {
  const records = await dns.lookup(host, { all: true, verbatim: true });
  return records.map((record) => record.address);
}
