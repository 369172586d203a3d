import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface InProcessRequest {
  readonly method: string;
  /** Path and query. */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  /** The caller's address, so per-IP rules see the real client. */
  readonly remoteAddress?: string;
}

export interface InProcessAnswer {
  readonly status: number;
  readonly body: unknown;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs one request through the whole express app in this process (no socket): the same pipeline as an HTTP
 * client gets — authentication, rate limits, validation, ownership, the handler and its answer table.
 */
export function dispatchInProcess(app: Handler, request: InProcessRequest): Promise<InProcessAnswer> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: request.remoteAddress ?? '127.0.0.1' });
    const req = new IncomingMessage(socket);
    req.method = request.method.toUpperCase();
    req.url = request.url;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const payload = request.body === undefined ? null : Buffer.from(JSON.stringify(request.body));
    const headers: Record<string, string> = { host: 'localhost', ...lowerCased(request.headers) };
    if (payload)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(payload.length) });
    req.headers = headers;
    if (payload) req.push(payload);
    req.push(null);

    const res = new ServerResponse(req);
    const chunks: Buffer[] = [];
    let done = false;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
      );
    };
    res.write = ((chunk: unknown, encoding?: unknown) => {
      collect(chunk, encoding);
      return true;
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, encoding?: unknown) => {
      if (done) return res;
      done = true;
      collect(chunk, encoding);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // Not JSON (never for the user API); handed over as text.
      }
      resolve({ status: res.statusCode, body });
      // Listeners waiting for the answer to finish (request log) still hear about it.
      res.emit('finish');
      return res;
    }) as ServerResponse['end'];
    try {
      app(req, res);
    } catch (e) {
      reject(e);
    }
  });
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
