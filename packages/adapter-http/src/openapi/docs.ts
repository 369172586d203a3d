import type { Application } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from './registry';
import type { RouteDoc } from './route-doc';

/** `GET /api/openapi.json` (built once, on first request, from the routes the composition root documents) and a human page at `/docs`. */
export function mountDocs(app: Application, version: string, routes: readonly RouteDoc[]): void {
  let cached: object | null = null;
  const document = () => (cached ??= buildOpenApiDocument(version, routes));
  app.get('/api/openapi.json', (_req, res) => {
    res.json(document());
  });
  app.use('/docs', swaggerUi.serveFiles(undefined, { swaggerUrl: '/api/openapi.json' }), swaggerUi.setup(undefined, { swaggerUrl: '/api/openapi.json' }));
}
