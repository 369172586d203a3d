import type { Application } from 'express';
import swaggerUi from 'swagger-ui-express';

/** `GET /api/openapi.json` (the document `document` builds once, on first request) and a human page at `/docs`. */
export function mountDocs(app: Application, document: () => object): void {
  app.get('/api/openapi.json', (_req, res) => {
    res.json(document());
  });
  app.use(
    '/docs',
    swaggerUi.serveFiles(undefined, { swaggerUrl: '/api/openapi.json' }),
    swaggerUi.setup(undefined, { swaggerUrl: '/api/openapi.json' }),
  );
}
