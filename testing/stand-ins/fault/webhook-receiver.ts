import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// The reference verifier is the library the signing package (adapter-outbound-http) uses, at the same version.
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  readonly webhookId: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly eventType: string | undefined;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Exact bytes received, as text. */
  readonly body: string;
  readonly at: number;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Waits this long before answering. */
  readonly delayMs?: number;
}

export type Responder = (request: ReceivedWebhook, seenBefore: number) => Answer;

/**
 * A webhook receiver on 127.0.0.1 that records every request and answers as told. `seenBefore`
 * counts earlier requests with the same `webhook-id`, which is how a real receiver de-duplicates.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly perId = new Map<string, number>();
  private responder: Responder = () => ({ status: 200, body: 'ok' });

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(responder?: Responder): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const header = (name: string) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        };
        const hook: ReceivedWebhook = {
          webhookId: header('webhook-id') ?? '',
          timestamp: header('webhook-timestamp') ?? '',
          signature: header('webhook-signature') ?? '',
          eventType: header('x-voiceplane-event'),
          path: req.url ?? '/',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const r = receiver as WebhookReceiver;
        const seenBefore = r.perId.get(hook.webhookId) ?? 0;
        r.perId.set(hook.webhookId, seenBefore + 1);
        r.received.push(hook);
        const answer = r.responder(hook, seenBefore);
        const send = () => {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(answer.body ?? '');
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new WebhookReceiver(server, (server.address() as AddressInfo).port);
    if (responder) receiver.respondWith(responder);
    return receiver;
  }

  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Distinct `webhook-id`s received: what a receiver that de-duplicates processes. */
  uniqueIds(): Set<string> {
    return new Set(this.perId.keys());
  }

  timesReceived(webhookId: string): number {
    return this.perId.get(webhookId) ?? 0;
  }

  forId(webhookId: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.webhookId === webhookId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Verifies a received webhook with the Standard Webhooks reference implementation and returns the
 * parsed payload; throws as the reference does when no signature matches or the timestamp is off.
 */
export function verifyWithReference(secret: string, hook: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(hook.body, {
    'webhook-id': hook.webhookId,
    'webhook-timestamp': hook.timestamp,
    'webhook-signature': hook.signature,
  });
}

// Tests that use the receiver wait the way every integration test does (see docs/testing.md).
export { eventually } from '@voiceplane/test-env/wait';
