import { createHash, createHmac } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stub of LiveKit's Twirp API on 127.0.0.1, shaped after what livekit-server-sdk sends: JSON
 * POSTs to `/twirp/livekit.<Service>/<Method>` with an HS256 JWT signed by the API secret. It
 * verifies the token, records each request and answers from a per-method queue, else from the
 * responder set with `respondWith` (404 `bad_route` when neither answers).
 */

export interface TwirpRequest {
  /** `Service/Method`, e.g. `SIP/CreateSIPParticipant`. */
  readonly method: string;
  readonly body: Record<string, unknown>;
  readonly claims: Record<string, unknown>;
}

export interface TwirpAnswer {
  readonly status?: number;
  readonly body: unknown;
}

export const STUB_API_KEY = 'APIstubkey';
export const STUB_API_SECRET = 'stub-secret-that-is-long-enough-for-hs256';

export class TwirpStub {
  readonly requests: TwirpRequest[] = [];
  private answers = new Map<string, TwirpAnswer[]>();
  private responder: (request: TwirpRequest) => TwirpAnswer | undefined = () => undefined;
  private beforeReply: (request: TwirpRequest) => Promise<void> | void = () => undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<TwirpStub> {
    let stub: TwirpStub | undefined;
    const server = createServer((req, res) => (stub as TwirpStub).handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub = new TwirpStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return stub;
  }

  /** Queues answers for `Service/Method`, used in order. */
  answer(method: string, ...answers: TwirpAnswer[]): void {
    this.answers.set(method, [...(this.answers.get(method) ?? []), ...answers]);
  }

  /** Answers what no queued answer covers, e.g. from a model of LiveKit's state. */
  respondWith(responder: (request: TwirpRequest) => TwirpAnswer | undefined): void {
    this.responder = responder;
  }

  /** Runs (and is awaited) before each answer goes out: a slow LiveKit, and a look at the caller while it waits. */
  holdReplies(hook: (request: TwirpRequest) => Promise<void> | void): void {
    this.beforeReply = hook;
  }

  reset(): void {
    this.requests.length = 0;
    this.answers.clear();
    this.responder = () => undefined;
    this.beforeReply = () => undefined;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      const claims = verifiedClaims(req.headers.authorization);
      if (claims === null) return reply(401, { code: 'unauthenticated', msg: 'bad token' });
      const method = (req.url ?? '').replace(/^\/twirp\/livekit\./, '');
      const request = { method, body: raw ? JSON.parse(raw) : {}, claims };
      this.requests.push(request);
      const answer = this.answers.get(method)?.shift() ??
        this.responder(request) ?? { status: 404, body: { code: 'bad_route', msg: `no stub for ${method}` } };
      void Promise.resolve()
        .then(() => this.beforeReply(request))
        .catch(() => undefined)
        .then(() => reply(answer.status ?? 200, answer.body));
    });
  }
}

function verifiedClaims(authorization: string | undefined): Record<string, unknown> | null {
  const [header, payload, signature] = (authorization ?? '').replace(/^Bearer /, '').split('.');
  if (!header || !payload) return null;
  const expected = createHmac('sha256', STUB_API_SECRET).update(`${header}.${payload}`).digest('base64url');
  return signature === expected ? JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) : null;
}

/**
 * A webhook as LiveKit's server posts it: the JSON body, and an `Authorization` JWT signed with the
 * API secret whose `sha256` claim is the body's hash.
 */
export function signedWebhook(
  event: Record<string, unknown>,
  secret: string = STUB_API_SECRET,
): { body: string; authorization: string } {
  const body = JSON.stringify(event);
  const now = Math.floor(Date.now() / 1000);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: STUB_API_KEY, nbf: now - 5, exp: now + 600, sha256: createHash('sha256').update(body).digest('base64') })}`;
  return { body, authorization: `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}` };
}
