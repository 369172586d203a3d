import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { decideIdempotentRequest, isStorableStatus, isValidIdempotencyKey } from '@voiceplane/domain';
import { IdempotencyStore, SecretCipher } from '@voiceplane/application';
import { ApiRequest, fullPath, RequestContext } from './request-context';
import type { MatchedRoute } from './route-table';

const RETENTION_MS = 24 * 3600_000;
/** How long an in-flight claim survives a process that died mid-request; renewed every third of it. */
const LEASE_MS = 60_000;
/** Sealed answers start with the cipher's version tag; a JSON body never does (rows from before sealing). */
const SEALED_PREFIX = 'v1.';

export interface IdempotencyOptions {
  /** The route a request will be dispatched to (see `routeResolver`): keys are scoped by it, not by the spelling of the path. */
  readonly routeOf: (method: string, path: string) => MatchedRoute | null;
  /**
   * Fault injection for the crash tests only: runs after the request's effect committed and before
   * its answer is stored or sent outside that commit.
   */
  readonly beforeAnswer?: () => Promise<void>;
}

/**
 * The scope a key is claimed in: the caller, and the route the router will dispatch to with its
 * parameters — `/send`, `/send/` and `/SEND` are one route, so one key covers them all.
 */
function scopeOf(req: Request, ctx: RequestContext, key: string, routeOf: IdempotencyOptions['routeOf']): string {
  const matched = routeOf(req.method, fullPath(req));
  // Parameters are hashed: a hook's token is one of them, and the scope is stored.
  const target = matched
    ? `${matched.route}:${createHash('sha256').update(JSON.stringify(matched.params)).digest('base64url')}`
    : `${req.method}:${createHash('sha256').update(fullPath(req)).digest('base64url')}`;
  const admin = matched
    ? matched.route.startsWith(`${req.method} /api/admin/`)
    : fullPath(req).startsWith('/api/admin');
  const owner = ctx.principal ? `u${ctx.principal.userId}` : admin ? 'admin' : 'hook';
  return `${owner}:${target}:${key}`;
}

/**
 * Idempotency-Key on POST. The answer is stored before it is sent, so a client that retries
 * after seeing it always gets the replay; where the controller replies with `reply(req, run, render)`,
 * it is stored in the very commit of the effect. Stored answers are sealed with the deployment
 * key: some carry a secret shown once (an API key token), and none may sit readable in the table
 * or the WAL.
 */
export function idempotency(
  store: IdempotencyStore,
  now: () => Date,
  cipher: SecretCipher,
  options: IdempotencyOptions,
) {
  const open = (body: string) => (body.startsWith(SEALED_PREFIX) ? cipher.decrypt(body) : Promise.resolve(body));
  const handle = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.headers['idempotency-key'];
    try {
      if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
        res.status(400).json({ message: 'Invalid Idempotency-Key header.' });
        return;
      }
      const ctx = (req as ApiRequest).ctx;
      const scope = scopeOf(req, ctx, key, options.routeOf);
      const fingerprint = createHash('sha256').update(ctx.rawBody).digest('hex');
      const at = now();
      const stored = await store.claim(scope, fingerprint, {
        now: at,
        expiresAt: new Date(at.getTime() + RETENTION_MS),
        leaseUntil: new Date(at.getTime() + LEASE_MS),
      });
      const decision = decideIdempotentRequest(stored, fingerprint);
      switch (decision.kind) {
        case 'replay': {
          const body = await open(decision.body).catch(() => null);
          if (body === null) {
            // Sealed under another SECRETS_KEY: the answer is lost, so the request is taken as new.
            await store.release(scope);
            await handle(req, res, next);
            return;
          }
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(decision.status).type('application/json').send(body);
          return;
        }
        case 'reused_with_other_body':
          res.status(422).json({
            message: 'This Idempotency-Key was already used with a different request body.',
            error: 'idempotency_key_reused',
          });
          return;
        case 'in_flight':
          res.status(409).json({
            message: 'A request with this Idempotency-Key is still being processed.',
            error: 'idempotency_key_in_use',
          });
          return;
        case 'answer_lost':
          res.status(409).json({
            message:
              'The request with this Idempotency-Key was carried out, but its answer was lost. It will not be carried out again.',
            error: 'idempotency_answer_lost',
          });
          return;
        case 'process':
          break;
      }
      let settled = false;
      const renewal = setInterval(() => {
        void store.renew(scope, new Date(now().getTime() + LEASE_MS)).catch(() => undefined);
      }, LEASE_MS / 3);
      renewal.unref();
      const originalJson = res.json.bind(res);
      res.json = ((body: unknown) => {
        settled = true;
        clearInterval(renewal);
        const text = JSON.stringify(body);
        const status = res.statusCode;
        const record = () =>
          isStorableStatus(status)
            ? cipher.encrypt(text).then((sealed) => store.complete(scope, status, sealed))
            : store.release(scope);
        const finish = options.beforeAnswer ? options.beforeAnswer().then(record) : record();
        finish.then(
          () => originalJson(body),
          () => originalJson(body),
        );
        return res;
      }) as Response['json'];
      // A request that ends without a JSON answer (aborted connection) must not block the key.
      res.on('close', () => {
        clearInterval(renewal);
        if (!settled) void store.release(scope).catch(() => undefined);
      });
      // Every transaction the request commits marks the key in the same commit, and the one that
      // concludes the use case stores the answer the controller renders from its result: after a crash
      // between the effect and the answer, a retry is never carried out a second time.
      const slot: NonNullable<RequestContext['outcomeAnswer']> = {};
      ctx.outcomeAnswer = slot;
      store.bindEffects(
        scope,
        () => next(),
        async (outcome) => {
          let answer: { status: number; body: object } | null = null;
          try {
            answer = slot.render ? slot.render(outcome) : null;
          } catch {
            // A renderer that cannot answer this result leaves the key marked committed, as without one.
          }
          if (answer === null || !isStorableStatus(answer.status)) return null;
          return { status: answer.status, body: await cipher.encrypt(JSON.stringify(answer.body)) };
        },
      );
    } catch (e) {
      next(e);
    }
  };
  // Everything else passes without the promise of `handle`.
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST' || req.headers['idempotency-key'] === undefined) return next();
    void handle(req, res, next);
  };
}
