import type { Application, NextFunction, Request, Response } from 'express';
import { canonicalRoute } from './aliases';
import { decodablePath } from './input-guard';
import { parameterFits } from './path-parameters';

type Params = Record<string, string>;
type Match = { params: Params } | false;

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean>; _handlesMethod(method: string): boolean };
  match(path: string): Match;
  handleRequest(req: Request, res: Response, next: NextFunction): void;
}

interface DeclaredRoute {
  readonly layer: RouteLayer & { route: NonNullable<RouteLayer['route']> };
  /** The route's own pattern, without the shapes of its parameters. */
  readonly loose: (path: string) => Match;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The router's rule for path parameters: a segment that does not have the shape of the
 * parameter never matches the route, so a literal path segment is never taken for an id, whatever order
 * the routes were declared in, and an unknown literal is an unknown route (404), never a 405. Applied once,
 * after every controller is mounted; answers the routes as declared.
 */
export function constrainRouteParameters(app: Application): DeclaredRoute[] {
  const stack = (app as unknown as { router: { stack: RouteLayer[] } }).router.stack;
  return stack
    .filter((l): l is DeclaredRoute['layer'] => l.route !== undefined)
    .map((layer) => {
      const loose = layer.match.bind(layer);
      layer.match = (path) => {
        const found = loose(path);
        return found && Object.entries(found.params).every(([name, value]) => parameterFits(name, value))
          ? found
          : false;
      };
      return { layer, loose };
    });
}

/**
 * What a request no route took gets: 405 with `Allow` when the path is known for other
 * methods (aliases included); else, when its own method has a route there but a parameter has the wrong
 * shape (`/api/user/assistant/abc`), that route answers its family's not-found; else 404 `{message}`.
 */
export function notFoundOrMethodNotAllowed(routes: readonly DeclaredRoute[]) {
  const handles = (method: string, path: string) =>
    routes.some(({ layer }) => layer.route._handlesMethod(method) && layer.match(path));
  return (req: Request, res: Response, next: NextFunction): void => {
    const requested = decodablePath(req.originalUrl.split('?')[0]);
    const allowed = METHODS.filter((method) => {
      const canonical = canonicalRoute(method, requested);
      return handles(method, req.path) || (canonical !== null && handles(canonical.method, canonical.path));
    });
    if (allowed.length > 0 && !allowed.includes(req.method as (typeof METHODS)[number])) {
      res.setHeader('Allow', [...allowed].sort().join(', '));
      res.status(405).json({ message: 'Method not allowed.' });
      return;
    }
    for (const { layer, loose } of routes) {
      if (!layer.route._handlesMethod(req.method)) continue;
      const found = loose(req.path);
      if (found) {
        req.params = found.params;
        layer.handleRequest(req, res, next);
        return;
      }
    }
    res.status(404).json({ message: 'Not found.' });
  };
}

/** A route's identity: its method and the path it was declared with, e.g. `POST /api/user/tools/:id/test`. */
export type RouteIdentity = string;

export const routeIdentity = (method: string, declaredPath: string): RouteIdentity =>
  `${method.toUpperCase()} ${declaredPath}`;

/**
 * The route the router will dispatch a request to, asked of the router's own table with its own
 * matching (case-insensitive, trailing slash ignored, parameter shapes as `constrainRouteParameters`
 * set them), so that whatever spelling reaches a handler is known by that handler's route. Reads the
 * table at the first call, after every controller is mounted.
 */
/** The route a request is dispatched to, with its path parameters as the router decoded them. */
export interface MatchedRoute {
  readonly route: RouteIdentity;
  readonly params: Readonly<Record<string, string>>;
}

export function routeResolver(app: Application): {
  resolve(method: string, path: string): RouteIdentity | null;
  match(method: string, path: string): MatchedRoute | null;
  declared(): Set<RouteIdentity>;
} {
  let stack: RouteLayer[] | null = null;
  const table = () =>
    (stack ??= (app as unknown as { router: { stack: RouteLayer[] } }).router.stack.filter(
      (l) => l.route !== undefined,
    ));
  const match = (method: string, path: string): MatchedRoute | null => {
    for (const layer of table()) {
      if (!layer.route!._handlesMethod(method)) continue;
      const found = layer.match(path);
      if (found) return { route: routeIdentity(method, layer.route!.path), params: found.params };
    }
    return null;
  };
  return {
    resolve: (method, path) => match(method, path)?.route ?? null,
    match,
    declared: () =>
      new Set(
        table().flatMap((l) =>
          Object.keys(l.route!.methods)
            .filter((m) => m !== '_all')
            .map((m) => routeIdentity(m, l.route!.path)),
        ),
      ),
  };
}
