import dns from 'node:dns';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTcpServer, isIP, Socket, type LookupFunction, type Server as TcpServer } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

export type Reply = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

/** An HTTP server on 127.0.0.1 that records every request before replying. */
export interface Receiver {
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  url(path?: string, host?: string): string;
  close(): Promise<void>;
}

export async function startReceiver(reply: Reply = (_request, response) => response.end('ok')): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body,
      });
      reply(request, response, body);
    });
  });
  server.on('connection', () => connections++);
  const port = await listenOnLoopback(server);
  return {
    port,
    requests,
    connections: () => connections,
    url: (path = '/', host = '127.0.0.1') => `http://${host}:${port}${path}`,
    close: () => closeServer(server),
  };
}

/** A TCP server on 127.0.0.1 that keeps the first bytes each connection sends, then hangs up. */
export async function startFirstBytesRecorder(): Promise<{ port: number; received: Buffer[]; close(): Promise<void> }> {
  const received: Buffer[] = [];
  const server = createTcpServer((socket) => {
    socket.once('data', (chunk: Buffer) => {
      received.push(chunk);
      socket.destroy();
    });
  });
  const port = await listenOnLoopback(server);
  return { port, received, close: () => closeServer(server) };
}

/** A loopback port nothing listens on (connections are refused). */
export async function refusedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listenOnLoopback(server);
  await closeServer(server);
  return port;
}

/** Resolver for the client under test: answers from a table, counts calls, never touches DNS. */
export function tableResolver(table: Record<string, readonly string[] | ((call: number) => readonly string[])>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<readonly string[]> => {
    calls.push(host);
    const entry = table[host];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return typeof entry === 'function' ? entry(calls.filter((h) => h === host).length) : entry;
  };
  return { resolve, calls };
}

export interface Dial {
  readonly host: string;
  readonly port: number;
  /** What the socket was told the host resolves to (the host itself for an address literal). */
  readonly addresses: readonly string[];
}

/**
 * Watches every outgoing TCP connection of the process, and fails any that would go anywhere but
 * 127.0.0.1 before a packet leaves, so a broken guard cannot make a test reach the network. Also
 * makes a real DNS lookup throw. Records what each socket was asked to dial.
 */
export function tapDials(): { dials: Dial[]; restore(): void } {
  const dials: Dial[] = [];
  const connect = Socket.prototype.connect;
  const connectSpy = jest.spyOn(Socket.prototype, 'connect').mockImplementation(function (
    this: Socket,
    ...args: unknown[]
  ) {
    const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as {
      host?: string;
      port?: number;
      lookup?: LookupFunction;
    };
    const host = options.host ?? 'localhost';
    const port = Number(options.port);
    const lookup = options.lookup;
    if (lookup === undefined) {
      dials.push({ host, port, addresses: [host] });
      if (host !== '127.0.0.1') {
        process.nextTick(() => this.destroy(new Error(`test tap: refused a dial to ${host}`)));
        return this;
      }
    } else {
      const dial = { host, port, addresses: [] as string[] };
      dials.push(dial);
      options.lookup = (hostname, lookupOptions, callback) =>
        lookup(hostname, lookupOptions, (error, address, family) => {
          const answered = Array.isArray(address) ? address.map((a) => a.address) : [address];
          dial.addresses.push(...answered);
          if (error || answered.every((a) => a === '127.0.0.1')) return callback(error, address, family);
          callback(
            Object.assign(new Error(`test tap: refused a dial to ${answered.join(', ')}`), { code: 'ENETUNREACH' }),
            [],
          );
        });
    }
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  });
  // Address literals pass: dns.lookup answers them without asking a server (server.listen uses it).
  const { lookup } = dns;
  const promisedLookup = dns.promises.lookup;
  const refuseNames = (hostname: string) => {
    if (isIP(hostname) === 0) throw new Error(`test tap: real DNS is not used in tests (${hostname})`);
  };
  const lookupSpies = [
    jest.spyOn(dns.promises, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
      refuseNames(hostname);
      return (promisedLookup as (...a: unknown[]) => unknown)(hostname, ...rest);
    }) as typeof dns.promises.lookup),
    jest.spyOn(dns, 'lookup').mockImplementation(((hostname: string, ...rest: unknown[]) => {
      refuseNames(hostname);
      return (lookup as (...a: unknown[]) => void)(hostname, ...rest);
    }) as typeof dns.lookup),
  ];
  return {
    dials,
    restore: () => [connectSpy, ...lookupSpies].forEach((spy) => spy.mockRestore()),
  };
}

function listenOnLoopback(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no TCP address'));
      resolve(address.port);
    });
  });
}

function closeServer(server: Server | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
