import {
  buildNormalizedPath,
  getControllerMetadataList,
  getControllerMethodMetadataList,
} from '@inversifyjs/http-core';
import type { Container, ServiceIdentifier } from 'inversify';
import type { Ctor } from '../validation';

export type RouteAuth = 'user' | 'api_key' | 'admin' | 'runtime' | 'none' | 'hook';

/**
 * Prefixes whose authentication the pipeline decides, whatever a route doc says or omits: a
 * provider ingress checks its provider's signature and no token, a hook its path token.
 */
const FAMILY_AUTH: readonly [string, RouteAuth][] = [
  ['/api/providers/', 'none'],
  ['/api/hooks/', 'hook'],
  ['/api/admin/', 'admin'],
  ['/api/runtime/', 'runtime'],
];

/** What the pipeline asks of a caller of the route. */
export function authOf(route: Pick<RouteDoc, 'path' | 'auth'>): RouteAuth {
  return FAMILY_AUTH.find(([prefix]) => route.path.startsWith(prefix))?.[1] ?? route.auth ?? 'user';
}

/** What the routing decorators of a handler cannot say about its operation; declared once, with `@Doc` on the handler. */
export interface OperationDoc {
  readonly summary: string;
  readonly tag: string;
  /** Who may call it; when absent, what the pipeline asks of its path's family (see `authOf`). */
  readonly auth?: RouteAuth;
  readonly body?: Ctor;
  readonly query?: Ctor;
  readonly success?: number;
  /** The success answer's media type when it is not JSON (`text/event-stream`). */
  readonly produces?: string;
}

/** One operation as the OpenAPI document describes it: its method and path as the controller's decorators declare them. */
export interface RouteDoc extends OperationDoc {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/user/tools/:id`). */
  readonly path: string;
}

const DOCS = new WeakMap<object, Map<string | symbol, OperationDoc>>();
const UNDOCUMENTED = new WeakSet<object>();

/** Describes the operation of the handler it decorates (next to `@Get`, `@Post`…, which give its method and path). */
export function Doc(doc: OperationDoc): MethodDecorator {
  return (prototype, key) => {
    const docs = DOCS.get(prototype.constructor) ?? new Map<string | symbol, OperationDoc>();
    docs.set(key, doc);
    DOCS.set(prototype.constructor, docs);
  };
}

/** Keeps a controller's routes out of the API document (pages for a browser, not operations of the API); says why. */
export function Undocumented(_why: string): ClassDecorator {
  return (controller) => {
    UNDOCUMENTED.add(controller);
  };
}

const METHODS: readonly string[] = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * The operations of the controllers `mounted` says are served (`container.isBound` of the composed container),
 * by path, then method. Sorted because the decorators' order is the order modules happen to be loaded in: the
 * document, and the client generated from it, would change whenever an import moved. A handler without `@Doc`
 * fails the document rather than silently leaving its route out.
 */
export function documentedRoutes(mounted: (controller: ServiceIdentifier) => boolean): RouteDoc[] {
  const routes: RouteDoc[] = [];
  for (const controller of getControllerMetadataList() ?? []) {
    if (!mounted(controller.serviceIdentifier) || UNDOCUMENTED.has(controller.target)) continue;
    for (const handler of getControllerMethodMetadataList(controller.target)) {
      const doc = DOCS.get(controller.target)?.get(handler.methodKey);
      const method = handler.requestMethodType as RouteDoc['method'];
      if (!doc || !METHODS.includes(method))
        throw new Error(`${controller.target.name}.${String(handler.methodKey)} has no @Doc for the API document`);
      routes.push({ method, path: buildNormalizedPath(`${controller.path}/${handler.path}`), ...doc });
    }
  }
  const byPath = (a: RouteDoc, b: RouteDoc) =>
    (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || METHODS.indexOf(a.method) - METHODS.indexOf(b.method);
  return routes.sort(byPath);
}

/** The documented operations of the controllers bound in `container`. */
export function routesOf(container: Container): RouteDoc[] {
  return documentedRoutes((controller) => container.isBound(controller));
}
