import type { Ctor } from '../validation';

export type RouteAuth = 'user' | 'api_key' | 'admin' | 'runtime' | 'none' | 'hook';

/**
 * Prefixes whose authentication the pipeline decides, whatever a route doc says or omits: a
 * provider ingress checks its provider's signature and no token, a hook its path token.
 */
const FAMILY_AUTH: readonly [string, RouteAuth][] = [
  ['/api/providers/', 'none'], ['/api/hooks/', 'hook'], ['/api/admin/', 'admin'], ['/api/runtime/', 'runtime'],
];

/** What the pipeline asks of a caller of the route. */
export function authOf(route: Pick<RouteDoc, 'path' | 'auth'>): RouteAuth {
  return FAMILY_AUTH.find(([prefix]) => route.path.startsWith(prefix))?.[1] ?? route.auth ?? 'user';
}

/** One operation as the OpenAPI document describes it; each controller module exports the list of its routes. */
export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/user/tools/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** Who may call it; when absent, what the pipeline asks of its path's family (see `authOf`). */
  readonly auth?: RouteAuth;
  readonly body?: Ctor;
  readonly query?: Ctor;
  readonly success?: number;
}
