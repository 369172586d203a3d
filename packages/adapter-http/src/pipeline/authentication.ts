import type { NextFunction, Request, Response } from 'express';
import { Authenticator, RateLimiter, sameSecret } from '@voiceplane/application';
import { ApiRequest, fullPath } from './request-context';
import { tooManyBody, familyOfPath } from './families';
import { sendTooMany } from './rate-limiting';

const UNAUTHORIZED = { error: 'Unauthorized' };
const UNAUTHENTICATED_PER_MINUTE = 60;

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

function unauthorized(res: Response, error = UNAUTHORIZED): void {
  res.setHeader('WWW-Authenticate', 'Bearer');
  res.status(401).json(error);
}

/** Routes only an API key may call. */
const API_KEY_ONLY = /^\/api\/(user|automate)\/conversations\/[^/]+\/(disable|enable)-ai$/;

/**
 * User tokens (API key or session). A failed attempt counts against the caller's IP so token
 * guessing is throttled like everything else (unauthenticated bucket).
 */
export function userAuthentication(authenticator: Authenticator, limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const token = bearerToken(req);
      const principal = token ? await authenticator.authenticate(token) : null;
      if (!principal) {
        const decision = await limiter.consume([
          { key: `unauth:${req.ip}`, limit: UNAUTHENTICATED_PER_MINUTE, windowSeconds: 60 },
        ]);
        if (!decision.allowed) {
          sendTooMany(
            res,
            decision.retryAfterSeconds,
            tooManyBody(familyOfPath(fullPath(req)), decision.retryAfterSeconds),
          );
          return;
        }
        unauthorized(res);
        return;
      }
      if (principal.tokenKind === 'session' && API_KEY_ONLY.test(fullPath(req))) {
        unauthorized(res, { error: 'This endpoint requires an API key.' });
        return;
      }
      (req as ApiRequest).ctx.principal = principal;
      next();
    } catch (e) {
      next(e);
    }
  };
}

/** Operator and runtime routes compare a configured token in constant time. */
export function staticTokenAuthentication(expected: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const token = bearerToken(req);
    if (!token || !sameSecret(token, expected)) {
      unauthorized(res);
      return;
    }
    next();
  };
}
