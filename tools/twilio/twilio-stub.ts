import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stub of Twilio's 2010-04-01 REST API on 127.0.0.1. It records each request and answers from a
 * queue; when nothing is queued it asks the responder, if one is set, else answers 500.
 */

export interface TwilioRequest {
  readonly method: string;
  /** Path and query, e.g. `/2010-04-01/Accounts/AC…/IncomingPhoneNumbers.json`. */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

export interface TwilioAnswer {
  readonly status: number;
  /** Sent as JSON; none for an empty answer (e.g. 204). */
  readonly body?: unknown;
}

export const STUB_ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
export const STUB_AUTH_TOKEN = 'auth-token';

export class TwilioStub {
  readonly requests: TwilioRequest[] = [];
  private answers: TwilioAnswer[] = [];
  private responder: ((request: TwilioRequest) => TwilioAnswer) | null = null;

  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  static async start(): Promise<TwilioStub> {
    let stub: TwilioStub | undefined;
    const server = createServer((req, res) => (stub as TwilioStub).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new TwilioStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return stub;
  }

  /** Queues answers, used in order by the next requests. */
  answer(...answers: TwilioAnswer[]): void {
    this.answers.push(...answers);
  }

  /** Answers every request nothing is queued for (a stateful model of Twilio). */
  respondWith(responder: (request: TwilioRequest) => TwilioAnswer): void {
    this.responder = responder;
  }

  reset(): void {
    this.requests.length = 0;
    this.answers = [];
    this.responder = null;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], body };
      this.requests.push(request);
      const answer = this.answers.shift() ?? this.responder?.(request) ?? { status: 500, body: { code: 20500, message: 'no stub answer' } };
      if (answer.body === undefined) res.writeHead(answer.status).end();
      else res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  }
}
