import 'reflect-metadata';
import express, { type Application, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { Container } from 'inversify';
import { InversifyExpressHttpAdapter } from '@inversifyjs/http-express';
import { Authenticator, IdempotencyStore, Ids, RateLimiter, SecretCipher, TOKENS } from '@voiceplane/application';
import { bodyReader } from './pipeline/body-reader';
import { decodablePath, refuseUnsafeText } from './pipeline/input-guard';
import { parseQuery } from './pipeline/query-parser';
import { requestContext } from './pipeline/request-id';
import { bearerToken, staticTokenAuthentication, userAuthentication } from './pipeline/authentication';
import { logRequest } from './pipeline/request-log';
import { securityHeaders } from './pipeline/security-headers';
import { rateLimiting, RouteQuota } from './pipeline/rate-limiting';
import { idempotency } from './pipeline/idempotency';
import { canonicalRoute, canonicalSearch } from './pipeline/aliases';
import {
  constrainRouteParameters,
  notFoundOrMethodNotAllowed,
  routeIdentity,
  routeResolver,
} from './pipeline/route-table';
import { UnexpectedErrorFilter } from './pipeline/error-filter';
import { familyOfPath, serverErrorBody } from './pipeline/families';
import { fullPath } from './pipeline/request-context';
import { mountDocs } from './openapi/docs';
import { mountConsole } from './console/console-pages';
import { buildOpenApiDocument } from './openapi/registry';
import { mcpEndpoint } from './mcp/mcp-endpoint';
import { mcpMessageReader } from './mcp/mcp-messages';
import { routesOf } from './openapi/route-doc';
import { isCheckoutPage } from './controllers/top-ups/sandbox-checkout-page';
import { mountWidgetRoutes, widgetCors } from './controllers/web-chat/widget-routes';

/**
 * Provider ingress paths answer in their own family: a provider this server does not serve (any name while the
 * sandbox stands in for the chat app) is `{"error":"Unknown provider."}`. Mounted after the controllers, so a
 * served provider's route answers first.
 */
function unknownProviders(app: Application): void {
  const unknown = (_req: Request, res: Response) => {
    res.status(404).json({ error: 'Unknown provider.' });
  };
  app.get('/api/providers/chatapp/:provider/webhook', unknown);
  app.post(
    [
      '/api/providers/chatapp/:provider/webhook',
      '/api/providers/billing/:provider/webhook',
      '/api/providers/sms/:provider/status',
    ],
    unknown,
  );
}

export interface HttpAppOptions {
  /** Controllers must already be bound in this container. */
  readonly container: Container;
  readonly logger: Logger;
  readonly version: string;
  readonly ids: Ids;
  readonly now: () => Date;
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly idempotencyStore: IdempotencyStore;
  /** Fault injection for the crash tests; never set in production. */
  readonly faults?: { readonly beforeIdempotentAnswer?: () => Promise<void> };
  /** Seals stored idempotent answers (they may carry a secret shown once). */
  readonly secrets: SecretCipher;
  readonly adminToken: string;
  readonly runtimeToken: string;
  readonly routeQuotas?: readonly RouteQuota[];
  /** Answers whether the database is reachable (health). */
  readonly databaseHealthy: () => Promise<boolean>;
  /** True while shutting down: new requests get 503. */
  readonly isDraining?: () => boolean;
  /** The built web console, served at `/app` when given. */
  readonly consoleDir?: string | null;
}

/** Builds the whole HTTP pipeline around the inversify controllers. */
export async function buildHttpApp(o: HttpAppOptions): Promise<Application> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  app.set('query parser', (qs: string) => parseQuery(qs));

  // The steps every request takes before routing share one layer: each express layer costs a
  // dispatch, and helmet alone was a dozen nested calls (security-headers.ts). In order: the request
  // id, the request line's canonical spelling, helmet's headers, the request log (at info only; below
  // that only errors matter, and the error handlers log those), the refusal while draining.
  const stamp = requestContext(o.ids, o.version);
  const secure = securityHeaders({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  const log = o.logger.isLevelEnabled('info') ? logRequest(o.logger) : null;
  app.use((req, res, next) => {
    stamp(req, res);
    const decodable = decodablePath(req.path);
    if (decodable !== req.path) req.url = decodable + req.url.slice(req.path.length);
    const canonical = canonicalRoute(req.method, req.path);
    if (canonical) {
      req.url = canonical.path + canonicalSearch(req.url.slice(req.path.length), canonical.query);
      req.method = canonical.method;
    }
    secure(res);
    log?.(req, res);
    if (o.isDraining?.() && req.path !== '/api/health') {
      res.setHeader('Connection', 'close');
      res.status(503).json({ message: 'Service unavailable.' });
      return;
    }
    next();
  });
  const userAuth = userAuthentication(o.authenticator, o.rateLimiter);
  // Resolved lazily: the controllers are mounted below, before the first request arrives.
  const routes = routeResolver(app);
  const limits = rateLimiting(
    o.rateLimiter,
    o.routeQuotas ?? [],
    (method, path) => routes.resolve(method, path),
    async (req) => {
      const token = bearerToken(req);
      return token ? o.authenticator.authenticate(token, { fresh: true }) : null;
    },
  );
  let openApi: object | null = null;
  // The routes `/api/openapi.json` describes: those of the controllers bound in the container.
  const document = () => (openApi ??= buildOpenApiDocument(o.version, routesOf(o.container)));
  // Before the body reader: MCP messages are read and refused in the protocol's terms, and counted (a batch
  // spends one hit per message) before the rate limit.
  app.use(
    '/mcp',
    userAuth,
    mcpMessageReader(o.logger),
    limits,
    mcpEndpoint({ app, document, version: o.version, logger: o.logger }),
  );

  // The body is read, then refused if it holds unsafe text: one layer.
  const readBody = bodyReader();
  app.use((req, res, next) => {
    readBody(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        refuseUnsafeText(req, res, next);
      } catch (e) {
        next(e);
      }
    });
  });

  mountConsole(app, o.consoleDir);
  app.get('/api/health', async (_req, res) => {
    const healthy = await o.databaseHealthy().catch(() => false);
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'unavailable', version: o.version });
  });
  mountDocs(app, document);

  const idem = idempotency(o.idempotencyStore, o.now, o.secrets, {
    routeOf: (method, path) => routes.match(method, path),
    beforeAnswer: o.faults?.beforeIdempotentAnswer,
  });
  // By the route the router dispatches to: `/api/user/login/` and `/API/USER/LOGIN` are login too.
  const isPublicUserRoute = (req: Request) =>
    req.method === 'POST' && routes.match(req.method, fullPath(req))?.route === 'POST /api/user/login';
  // Authentication, the rate limit and idempotency of `/api/user` in one layer (a layer costs a
  // dispatch per request); the layers between them here never match an `/api/user` path.
  // The chatbot routes are the account's own, under the public reference's paths.
  app.use(['/api/user', '/api/conversations'], (req, res, next) => {
    const idempotent = () => void idem(req, res, next);
    if (isPublicUserRoute(req)) return idempotent();
    void userAuth(req, res, (err?: unknown) =>
      err ? next(err) : limits(req, res, (e?: unknown) => (e ? next(e) : idempotent())),
    );
  });
  // The sandbox checkout page is opened in a browser: the one-time token in its address is its credential.
  app.use('/api/sandbox', (req, res, next) => (isCheckoutPage(req) ? next() : userAuth(req, res, next)));
  app.use('/api/widget', widgetCors);
  app.use('/api/admin', staticTokenAuthentication(o.adminToken));
  app.use('/api/runtime', staticTokenAuthentication(o.runtimeToken));
  app.use(['/api/admin', '/api/hooks'], idem);

  o.container.bind(UnexpectedErrorFilter).toConstantValue(new UnexpectedErrorFilter(o.logger));
  const adapter = new InversifyExpressHttpAdapter(o.container, { logger: false }, app);
  adapter.useGlobalFilters(UnexpectedErrorFilter);
  await adapter.build();
  // A quota naming no route would silently limit nothing.
  const declared = routes.declared();
  for (const q of o.routeQuotas ?? []) {
    for (const path of q.routes)
      if (!declared.has(routeIdentity(q.method, path)))
        throw new Error(`Route quota for an undeclared route: ${q.method} ${path}`);
  }

  unknownProviders(app);
  mountWidgetRoutes(app, () =>
    o.container.isBound(TOKENS.WidgetStreams)
      ? { widget: o.container.get(TOKENS.WebWidget), streams: o.container.get(TOKENS.WidgetStreams) }
      : null,
  );
  app.use(notFoundOrMethodNotAllowed(constrainRouteParameters(app)));
  // Errors raised by express middleware (not controllers) end here.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    o.logger.error({ err, path: req.path }, 'unhandled pipeline error');
    if (!res.headersSent) res.status(500).json(serverErrorBody(familyOfPath(req.path)));
  });
  return app;
}
