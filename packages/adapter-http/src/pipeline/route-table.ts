import type { Application, Request, Response } from 'express';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean>; _handlesMethod(method: string): boolean };
  match(path: string): unknown;
}

const routeLayers = (app: Application): RouteLayer[] =>
  ((app as unknown as { router: { stack: RouteLayer[] } }).router.stack).filter((l) => l.route);

/** A route's identity: its method and the path it was declared with, e.g. `POST /api/user/tools/:id/test`. */
export type RouteIdentity = string;

export const routeIdentity = (method: string, declaredPath: string): RouteIdentity => `${method.toUpperCase()} ${declaredPath}`;

/**
 * The route the router will dispatch a request to, asked of the router's own table with its own
 * matching (case-insensitive, trailing slash ignored), so that whatever spelling reaches a handler
 * is known by that handler's route. Read from the table at the first call, after every controller
 * is mounted.
 */
export function routeResolver(app: Application): { resolve(method: string, path: string): RouteIdentity | null; declared(): Set<RouteIdentity> } {
  let stack: RouteLayer[] | null = null;
  const table = () => (stack ??= routeLayers(app));
  return {
    resolve(method, path) {
      for (const layer of table()) {
        if (layer.match(path) && layer.route!._handlesMethod(method)) return routeIdentity(method, layer.route!.path);
      }
      return null;
    },
    declared: () => new Set(table().flatMap((l) => Object.keys(l.route!.methods).filter((m) => m !== '_all').map((m) => routeIdentity(m, l.route!.path)))),
  };
}

/**
 * Unknown routes answer 404 `{message}`; a known path with another method answers 405 with
 * `Allow` (CONTRACT §1.5). The route table is read once, after every controller is mounted.
 */
export function notFoundOrMethodNotAllowed(app: Application) {
  const stack = routeLayers(app);
  return (req: Request, res: Response): void => {
    const allowed = new Set<string>();
    for (const layer of stack) {
      if (layer.match(req.path)) for (const m of Object.keys(layer.route!.methods)) if (m !== '_all') allowed.add(m.toUpperCase());
    }
    if (allowed.size > 0 && !allowed.has(req.method)) {
      res.setHeader('Allow', [...allowed].sort().join(', '));
      res.status(405).json({ message: 'Method not allowed.' });
      return;
    }
    res.status(404).json({ message: 'Not found.' });
  };
}
