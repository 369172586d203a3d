import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/**
 * What every provider stand-in shares: a websocket server on 127.0.0.1, a log of every connection
 * and every message received (the wire checks read it), a latency injected before each answer, and
 * the ways a provider fails.
 */

/** How the stand-in misbehaves from now on (null: it answers as the provider does). */
export type Failure =
  /** closes the websocket as soon as a request arrives (mid-utterance for the transcriber) */
  | 'close'
  /** answers bytes that are not the protocol's JSON */
  | 'garbage'
  /** takes the request and never answers */
  | 'silent'
  /** refuses new connections (HTTP 503 on the upgrade) */
  | 'refuse';

export interface Connection {
  readonly id: number;
  readonly at: number;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
}

export interface Received {
  readonly connection: number;
  readonly at: number;
  /** Parsed JSON for text messages; for binary audio, its byte length. */
  readonly message: unknown;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export abstract class WebSocketStandIn {
  readonly connections: Connection[] = [];
  readonly received: Received[] = [];
  /** Milliseconds before the first answer to each request. */
  latencyMs = 0;
  failure: Failure | null = null;
  /** What a `close` or `garbage` failure turns into once it has acted (a provider that stays down). */
  failureAfter: Failure | null = null;
  private readonly sockets = new Set<WebSocket>();
  private server!: Server;
  private wss!: WebSocketServer;
  baseUrl = '';

  protected async listen(scheme: 'ws' | 'http', suffix = ''): Promise<void> {
    this.server = createServer((_req, res) => res.writeHead(404).end());
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.failure === 'refuse') {
        socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const connection: Connection = {
          id: this.connections.length + 1,
          at: Date.now(),
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
        };
        this.connections.push(connection);
        this.sockets.add(ws);
        ws.on('close', () => this.sockets.delete(ws));
        ws.on('error', () => undefined);
        ws.on('message', (data, isBinary) => {
          const message = isBinary ? (data as Buffer).length : parseJson(data.toString());
          this.received.push({ connection: connection.id, at: Date.now(), message });
          if (this.failure === 'close' && this.closesOn(message)) {
            ws.terminate();
            this.failure = this.failureAfter ?? this.failure;
          } else if (this.failure === 'garbage' && this.closesOn(message)) {
            ws.send('<html>502 Bad Gateway</html>');
            this.failure = this.failureAfter ?? this.failure;
          } else if (this.failure === null) this.onMessage(ws, connection, message);
        });
        this.onOpen(ws, connection);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}${suffix}`;
  }

  /** Whether a message counts as a request a failing provider reacts to (audio, a text to speak). */
  protected abstract closesOn(message: unknown): boolean;
  protected abstract onMessage(ws: WebSocket, connection: Connection, message: unknown): void;
  protected onOpen(_ws: WebSocket, _connection: Connection): void {}

  /** The JSON messages received, in order. */
  messages<T = Record<string, unknown>>(): T[] {
    return this.received.filter((r) => typeof r.message === 'object' && r.message !== null).map((r) => r.message as T);
  }

  reset(): void {
    this.connections.length = 0;
    this.received.length = 0;
    this.latencyMs = 0;
    this.failure = null;
    this.failureAfter = null;
  }

  /** Closes every open websocket, as a provider restarting would. */
  dropConnections(): void {
    for (const ws of this.sockets) ws.terminate();
  }

  async close(): Promise<void> {
    this.dropConnections();
    this.wss.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function send(ws: WebSocket, message: unknown): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
