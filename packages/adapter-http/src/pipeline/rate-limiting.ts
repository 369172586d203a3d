import type { NextFunction, Request, Response } from 'express';
import { Bucket, Principal, RateDecision, RateLimiter } from '@voiceplane/application';
import { ApiRequest, fullPath } from './request-context';
import { familyOfPath, tooManyBody } from './families';

/** A per-route quota on top of the general limit (CONTRACT §1.8), e.g. chat-app sends. */
export interface RouteQuota {
  readonly method: string;
  readonly path: RegExp;
  readonly buckets: (principal: Principal) => Bucket[];
}

export function sendTooMany(res: Response, retryAfter: number, body: object): void {
  res.setHeader('Retry-After', String(retryAfter));
  res.status(429).json(body);
}

function setHeaders(res: Response, decision: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.reported.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.reported.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.reported.resetEpochSeconds));
}

function bucketsOf(req: Request, principal: Principal, quotas: readonly RouteQuota[]): Bucket[] {
  const buckets: Bucket[] = [{
    key: `general:${principal.tokenKind}:${principal.tokenId}`,
    limit: principal.plan.api_rate_limit_per_minute,
    windowSeconds: 60,
  }];
  for (const q of quotas) if (q.method === req.method && q.path.test(fullPath(req))) buckets.push(...q.buckets(principal));
  return buckets;
}

/**
 * General per-token limit from the plan plus any route quotas, counted in the shared store.
 * `freshPrincipal` re-reads the caller past the principal cache before a refusal: a plan raised
 * a moment ago on another instance must not be refused under the old limit.
 */
export function rateLimiting(limiter: RateLimiter, quotas: readonly RouteQuota[], freshPrincipal?: (req: Request) => Promise<Principal | null>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const ctx = (req as ApiRequest).ctx;
      let decision = await limiter.consume(bucketsOf(req, ctx.principal!, quotas));
      if (!decision.allowed && freshPrincipal) {
        const fresh = await freshPrincipal(req);
        if (fresh && JSON.stringify(fresh.plan) !== JSON.stringify(ctx.principal!.plan)) {
          ctx.principal = fresh;
          decision = await limiter.consume(bucketsOf(req, fresh, quotas));
        }
      }
      setHeaders(res, decision);
      if (!decision.allowed) {
        sendTooMany(res, decision.retryAfterSeconds, tooManyBody(familyOfPath(fullPath(req)), decision.retryAfterSeconds));
        return;
      }
      next();
    } catch (e) {
      next(e);
    }
  };
}
