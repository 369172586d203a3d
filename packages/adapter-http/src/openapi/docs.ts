import type { Application } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from './registry';

/** `GET /api/openapi.json` (built once, on first request) and a human page at `/docs`. */
export function mountDocs(app: Application): void {
  let cached: object | null = null;
  const document = () => (cached ??= buildOpenApiDocument(String(app.get('voiceplane version') ?? '1.0.0')));
  app.get('/api/openapi.json', (_req, res) => {
    res.json(document());
  });
  app.use('/docs', swaggerUi.serveFiles(undefined, { swaggerUrl: '/api/openapi.json' }), swaggerUi.setup(undefined, { swaggerUrl: '/api/openapi.json' }));
}
