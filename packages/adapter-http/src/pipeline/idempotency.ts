import { createHash } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { decideIdempotentRequest, isStorableStatus, isValidIdempotencyKey } from '@voiceplane/domain';
import { IdempotencyStore } from '@voiceplane/application';
import { ApiRequest, fullPath } from './request-context';

const RETENTION_MS = 24 * 3600_000;

/**
 * Idempotency-Key on POST (CONTRACT §1.10). The answer is stored before it is sent, so a client
 * that retries after seeing it always gets the replay.
 */
export function idempotency(store: IdempotencyStore, now: () => Date) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
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
      const stored = await store.claim(scope, fingerprint, at, new Date(at.getTime() + RETENTION_MS));
      const decision = decideIdempotentRequest(stored, fingerprint);
      switch (decision.kind) {
        case 'replay':
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(decision.status).type('application/json').send(decision.body);
          return;
        case 'reused_with_other_body':
          res.status(422).json({ message: 'This Idempotency-Key was already used with a different request body.', error: 'idempotency_key_reused' });
          return;
        case 'in_flight':
          res.status(409).json({ message: 'A request with this Idempotency-Key is still being processed.', error: 'idempotency_key_in_use' });
          return;
        case 'process':
          break;
      }
      let settled = false;
      const originalJson = res.json.bind(res);
      res.json = ((body: unknown) => {
        settled = true;
        const text = JSON.stringify(body);
        const status = res.statusCode;
        const finish = isStorableStatus(status) ? store.complete(scope, status, text) : store.release(scope);
        finish.then(() => originalJson(body), () => originalJson(body));
        return res;
      }) as Response['json'];
      // A request that ends without a JSON answer (aborted connection) must not block the key.
      res.on('close', () => {
        if (!settled) void store.release(scope).catch(() => undefined);
      });
      next();
    } catch (e) {
      next(e);
    }
  };
}
