import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { decideIdempotentRequest, isStorableStatus, isValidIdempotencyKey } from '@voiceplane/domain';
import { IdempotencyStore, SecretCipher } from '@voiceplane/application';
import { ApiRequest, fullPath } from './request-context';

const RETENTION_MS = 24 * 3600_000;
/** How long an in-flight claim survives a process that died mid-request; renewed every third of it. */
const LEASE_MS = 60_000;
/** Sealed answers start with the cipher's version tag; a JSON body never does (rows from before sealing). */
const SEALED_PREFIX = 'v1.';

/**
 * Idempotency-Key on POST. The answer is stored before it is sent, so a client
 * that retries after seeing it always gets the replay. Stored answers are sealed with the
 * deployment key: some carry a secret shown once (an API key token), and none may sit readable
 * in the table or the WAL.
 */
export function idempotency(store: IdempotencyStore, now: () => Date, cipher: SecretCipher) {
  const open = (body: string) => (body.startsWith(SEALED_PREFIX) ? cipher.decrypt(body) : Promise.resolve(body));
  const handle = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.headers['idempotency-key'];
    if (req.method !== 'POST' || key === undefined) {
      next();
      return;
    }
    try {
      if (typeof key !== 'string' || !isValidIdempotencyKey(key)) {
        res.status(400).json({ message: 'Invalid Idempotency-Key header.' });
        return;
      }
      const ctx = (req as ApiRequest).ctx;
      const owner = ctx.principal ? `u${ctx.principal.userId}` : fullPath(req).startsWith('/api/admin') ? 'admin' : 'hook';
      const scope = `${owner}:${req.method}:${fullPath(req)}:${key}`;
      const fingerprint = createHash('sha256').update(ctx.rawBody).digest('hex');
      const at = now();
      const stored = await store.claim(scope, fingerprint, {
        now: at, expiresAt: new Date(at.getTime() + RETENTION_MS), leaseUntil: new Date(at.getTime() + LEASE_MS),
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
          res.status(422).json({ message: 'This Idempotency-Key was already used with a different request body.', error: 'idempotency_key_reused' });
          return;
        case 'in_flight':
          res.status(409).json({ message: 'A request with this Idempotency-Key is still being processed.', error: 'idempotency_key_in_use' });
          return;
        case 'answer_lost':
          res.status(409).json({
            message: 'The request with this Idempotency-Key was carried out, but its answer was lost. It will not be carried out again.',
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
        const finish = isStorableStatus(status) ? cipher.encrypt(text).then((sealed) => store.complete(scope, status, sealed)) : store.release(scope);
        finish.then(() => originalJson(body), () => originalJson(body));
        return res;
      }) as Response['json'];
      // A request that ends without a JSON answer (aborted connection) must not block the key.
      res.on('close', () => {
        clearInterval(renewal);
        if (!settled) void store.release(scope).catch(() => undefined);
      });
      // Every transaction the request commits marks the key in the same commit: after a crash between
      // the effect and the stored answer, a retry is never carried out a second time.
      store.bindEffects(scope, () => next());
    } catch (e) {
      next(e);
    }
  };
  return handle;
}
