import type { Application, Request, Response } from 'express';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * Unknown routes answer 404 `{message}`; a known path with another method answers 405 with
 * `Allow` (CONTRACT §1.5). The route table is read once, after every controller is mounted.
 */
export function notFoundOrMethodNotAllowed(app: Application) {
  const stack = ((app as unknown as { router: { stack: RouteLayer[] } }).router.stack).filter((l) => l.route);
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
