import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stub of a provider's JSON REST API on 127.0.0.1. It records each request and answers from a
 * queue; when nothing is queued it asks the responder, if one is set, else answers 500 with the
 * provider's idea of an error body.
 */

export interface StubRequest {
  readonly method: string;
  /** Path and query, e.g. `/v21.0/106540352242922/messages`. */
  readonly path: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string;
}

export interface StubAnswer {
  readonly status: number;
  /** Sent as JSON; none for an empty answer (e.g. 204). */
  readonly body?: unknown;
  /** Answers this late (a provider that hangs, for timeouts). */
  readonly delayMs?: number;
  /**
   * Answers as server-sent events instead (a streaming API): each a `data:` line of JSON (a string
   * is sent as it is, e.g. `[DONE]`), `gapMs` apart, then the end.
   */
  readonly events?: readonly unknown[];
  readonly gapMs?: number;
}

export class RecordingStub {
  readonly requests: StubRequest[] = [];
  private answers: StubAnswer[] = [];
  private responder: ((request: StubRequest) => StubAnswer) | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
    private readonly unanswered: StubAnswer,
  ) {}

  static async start(
    unanswered: StubAnswer = { status: 500, body: { error: 'no stub answer' } },
  ): Promise<RecordingStub> {
    let stub: RecordingStub | undefined;
    const server = createServer((req, res) => (stub as RecordingStub).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new RecordingStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, unanswered);
    return stub;
  }

  /** Queues answers, used in order by the next requests. */
  answer(...answers: StubAnswer[]): void {
    this.answers.push(...answers);
  }

  /** Answers every request nothing is queued for (a stateful model of the provider). */
  respondWith(responder: (request: StubRequest) => StubAnswer): void {
    this.responder = responder;
  }

  reset(): void {
    this.requests.length = 0;
    this.answers = [];
    this.responder = null;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private stream(res: ServerResponse, status: number, events: readonly unknown[], gapMs: number): void {
    res.writeHead(status, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    let i = 0;
    const next = () => {
      if (res.destroyed) return;
      if (i === events.length) {
        res.end();
        return;
      }
      const event = events[i++];
      res.write(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        next();
      }, gapMs);
      this.timers.add(timer);
    };
    next();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      };
      this.requests.push(request);
      const answer = this.answers.shift() ?? this.responder?.(request) ?? this.unanswered;
      const send = () => {
        if (res.destroyed) return;
        if (answer.events !== undefined) {
          this.stream(res, answer.status, answer.events, answer.gapMs ?? 0);
          return;
        }
        if (answer.body === undefined) res.writeHead(answer.status).end();
        else res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
      };
      if (!answer.delayMs) {
        send();
        return;
      }
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send();
      }, answer.delayMs);
      this.timers.add(timer);
    });
  }
}
