import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Application } from 'express';

/** One event as a stream reader parses it. */
export interface StreamedEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

/** A `text/event-stream` answer being read: what arrived so far, comments (heartbeats) counted apart. */
export interface OpenEventStream {
  readonly status: number;
  readonly headers: Headers;
  readonly events: StreamedEvent[];
  readonly comments: string[];
  /** The body as received, for answers that are not a stream. */
  readonly text: () => string;
  readonly ended: () => boolean;
  close(): void;
}

/** Serves `app` on an ephemeral loopback port for the duration of a suite (supertest cannot read an endless body). */
export async function listenOnLoopback(
  app: Application,
): Promise<{ readonly baseUrl: string; close(): Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Opens a stream with fetch, as a browser's console does, and parses its events as they come. */
export async function openEventStream(url: string, headers: Record<string, string>): Promise<OpenEventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const events: StreamedEvent[] = [];
  const comments: string[] = [];
  let raw = '';
  let pending = '';
  let ended = false;
  const decoder = new TextDecoder();
  const take = (block: string) => {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) events.push({ id, event, data: data.join('\n') });
  };
  void (async () => {
    try {
      for await (const chunk of res.body ?? []) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        raw += text;
        pending += text;
        let end = pending.indexOf('\n\n');
        while (end >= 0) {
          take(pending.slice(0, end));
          pending = pending.slice(end + 2);
          end = pending.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      ended = true;
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    comments,
    text: () => raw,
    ended: () => ended,
    close: () => abort.abort(),
  };
}
