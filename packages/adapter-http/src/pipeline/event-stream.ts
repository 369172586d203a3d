import { HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

export interface ServerSentEvent {
  /** Set only on events a reader resumes after (`Last-Event-ID`); a passing event leaves the reader's last id as it was. */
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
}

export interface EventStreamOptions {
  /** How often an idle stream writes a comment line, so proxies and readers see it is alive. */
  readonly heartbeatMs: number;
  /** Milliseconds a reader waits before it reconnects (the stream's `retry:` field). */
  readonly retryMs: number;
  /**
   * Bytes written but not yet taken by the reader past which the stream is closed: a reader that
   * stopped reading is let go rather than held in memory; it reconnects and resumes by
   * `Last-Event-ID`. Default 1 MiB.
   */
  readonly maxBufferedBytes?: number;
}

const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Field values may not break a line: a stray CR or LF would start a field of its own. */
const oneLine = (value: string): string => value.replace(/[\r\n]/g, ' ');

/** The `Last-Event-ID` a reconnecting reader sent (an `EventSource` sends it as a header). */
export function lastEventIdOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers['last-event-id'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * The one `text/event-stream` writer of the api (the account's event stream, the widget's chat
 * stream): events written as they come, a comment line every `heartbeatMs`, a reader that stops
 * reading dropped past `maxBufferedBytes`, and one close however it ends (the reader went away,
 * or the server ends it).
 */
export class EventStreamWriter {
  private readonly body = new PassThrough();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closers: (() => void)[] = [];
  private readonly maxBuffered: number;
  private closed = false;

  constructor(options: EventStreamOptions) {
    this.maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
    this.body.write(`retry: ${options.retryMs}\n\n`);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(event: ServerSentEvent): void {
    const lines = [
      ...(event.id === undefined ? [] : [`id: ${oneLine(event.id)}`]),
      ...(event.event === undefined ? [] : [`event: ${oneLine(event.event)}`]),
      ...event.data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`),
    ];
    this.write(`${lines.join('\n')}\n\n`);
  }

  onClose(closer: () => void): void {
    if (this.closed) closer();
    else this.closers.push(closer);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.body.end();
    for (const closer of this.closers.splice(0)) closer();
  }

  /** The answer of a controller route; the caller closes the writer when the request's response closes. */
  response(): HttpResponse {
    return { [isHttpResponseSymbol]: true, statusCode: 200, body: this.body, headers: { ...HEADERS } };
  }

  /** The answer of a plain express route: headers now, the events as they come, closed with the response. */
  pipeTo(res: ServerResponse, headers: Readonly<Record<string, string>> = {}): void {
    res.writeHead(200, { ...HEADERS, ...headers });
    res.flushHeaders();
    res.once('close', () => this.close());
    this.body.pipe(res);
  }

  private write(chunk: string): void {
    if (this.closed) return;
    // What the reader has not taken yet sits in the body (and the socket behind it): too much means it stopped reading.
    if (this.body.writableLength + chunk.length > this.maxBuffered) {
      this.close();
      return;
    }
    this.body.write(chunk);
  }
}
