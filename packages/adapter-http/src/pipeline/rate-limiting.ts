import type { NextFunction, Request, Response } from 'express';
import { Bucket, Principal, RateDecision, RateLimiter } from '@voiceplane/application';
import { ApiRequest, fullPath } from './request-context';
import { familyOfPath, tooManyBody } from './families';
import { RouteIdentity, routeIdentity } from './route-table';

/**
 * A per-route quota on top of the general limit, e.g. chat-app sends. Named by the routes it
 * covers, as declared (`/api/user/tools/:id/test`): it applies to whatever request the router
 * dispatches to one of them, however the path was spelled.
 */
export interface RouteQuota {
  readonly method: string;
  readonly routes: readonly string[];
  readonly buckets: (principal: Principal) => Bucket[];
}

/** Resolves a request to the identity of the route that will answer it (see `routeResolver`). */
export type RouteOf = (method: string, path: string) => RouteIdentity | null;

export function sendTooMany(res: Response, retryAfter: number, body: object): void {
  res.setHeader('Retry-After', String(retryAfter));
  res.status(429).json(body);
}

function setHeaders(res: Response, decision: RateDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.reported.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.reported.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.reported.resetEpochSeconds));
}

function bucketsOf(
  req: Request,
  principal: Principal,
  quotasOf: (route: RouteIdentity) => readonly RouteQuota[],
  routeOf: RouteOf,
): Bucket[] {
  const buckets: Bucket[] = [
    {
      key: `general:${principal.tokenKind}:${principal.tokenId}`,
      limit: principal.plan.api_rate_limit_per_minute,
      windowSeconds: 60,
    },
  ];
  const route = routeOf(req.method, fullPath(req));
  if (route !== null) for (const q of quotasOf(route)) buckets.push(...q.buckets(principal));
  return buckets;
}

/**
 * General per-token limit from the plan plus any route quotas, counted in the shared store.
 * `freshPrincipal` re-reads the caller past the principal cache before a refusal: a plan raised
 * a moment ago on another instance must not be refused under the old limit.
 */
export function rateLimiting(
  limiter: RateLimiter,
  quotas: readonly RouteQuota[],
  routeOf: RouteOf,
  freshPrincipal?: (req: Request) => Promise<Principal | null>,
) {
  const byRoute = new Map<RouteIdentity, RouteQuota[]>();
  for (const q of quotas) {
    for (const path of q.routes) {
      const id = routeIdentity(q.method, path);
      byRoute.set(id, [...(byRoute.get(id) ?? []), q]);
    }
  }
  const quotasOf = (route: RouteIdentity) => byRoute.get(route) ?? [];
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const ctx = (req as ApiRequest).ctx;
      // A request carrying several calls spends one hit per call, and is refused at the first that does not fit.
      const spend = async (principal: Principal) => {
        let decision = await limiter.consume(bucketsOf(req, principal, quotasOf, routeOf));
        for (let i = 1; i < (ctx.calls ?? 1) && decision.allowed; i++)
          decision = await limiter.consume(bucketsOf(req, principal, quotasOf, routeOf));
        return decision;
      };
      let decision = await spend(ctx.principal!);
      if (!decision.allowed && freshPrincipal) {
        const fresh = await freshPrincipal(req);
        if (fresh && JSON.stringify(fresh.plan) !== JSON.stringify(ctx.principal!.plan)) {
          ctx.principal = fresh;
          decision = await spend(fresh);
        }
      }
      setHeaders(res, decision);
      if (!decision.allowed) {
        sendTooMany(
          res,
          decision.retryAfterSeconds,
          tooManyBody(familyOfPath(fullPath(req)), decision.retryAfterSeconds),
        );
        return;
      }
      next();
    } catch (e) {
      next(e);
    }
  };
}
