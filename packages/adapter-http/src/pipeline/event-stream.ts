import { HttpResponse, isHttpResponseSymbol } from '@inversifyjs/http-core';
import { PassThrough } from 'node:stream';

export interface ServerSentEvent {
  readonly id?: string;
  readonly event?: string;
  readonly data: string;
}

/** Field values may not break a line: a stray CR or LF would start a field of its own. */
const oneLine = (value: string): string => value.replace(/[\r\n]/g, ' ');

/**
 * A `text/event-stream` answer: events written as they come, a comment line every `heartbeatMs`
 * so proxies and readers see an idle stream is alive, and one close however it ends (the reader
 * went away, or the server ends it).
 */
export class EventStreamWriter {
  private readonly body = new PassThrough();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly closers: (() => void)[] = [];
  private closed = false;

  constructor(heartbeatMs: number, retryMs: number) {
    this.body.write(`retry: ${retryMs}\n\n`);
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
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

  response(): HttpResponse {
    return {
      [isHttpResponseSymbol]: true,
      statusCode: 200,
      body: this.body,
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  }

  private write(chunk: string): void {
    if (!this.closed) this.body.write(chunk);
  }
}
