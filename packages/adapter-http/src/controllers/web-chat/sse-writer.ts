import type { Response } from 'express';

/** Comment lines every so often keep proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export interface EventStream {
  send(id: number | null, event: string, data: unknown): void;
  /** Resolves when the client went away. */
  readonly closed: Promise<void>;
  readonly isClosed: () => boolean;
  end(): void;
}

/**
 * A server-sent events response: the headers, one `event`/`data` block per message (with `id`, so
 * a reconnecting browser sends `Last-Event-ID`), heartbeats, and the end when the client leaves.
 */
export function openEventStream(res: Response, headers: Readonly<Record<string, string>> = {}): EventStream {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.flushHeaders();
  let closed = false;
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const done = new Promise<void>((resolve) =>
    res.on('close', () => {
      closed = true;
      clearInterval(heartbeat);
      resolve();
    }),
  );
  res.write('retry: 2000\n\n');
  return {
    send: (id, event, data) => {
      if (closed) return;
      res.write(`${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    closed: done,
    isClosed: () => closed,
    end: () => {
      clearInterval(heartbeat);
      res.end();
    },
  };
}
