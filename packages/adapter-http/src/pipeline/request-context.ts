import type { Request } from 'express';
import { Principal } from '@voiceplane/application';
import type { UploadedFile } from './multipart';

/** What the pipeline attaches to every request before a controller sees it. */
export interface RequestContext {
  requestId: string;
  /** Exact bytes received (idempotency fingerprints, provider signatures). */
  rawBody: Buffer;
  principal?: Principal;
  /**
   * Set on a request with an Idempotency-Key: the controller puts here how it renders its use
   * case's result, so the answer is stored in the transaction that concludes the use case.
   */
  outcomeAnswer?: { render?: (outcome: unknown) => { readonly status: number; readonly body: object } };
  /** How many calls the request carries (a JSON-RPC batch on `/mcp`): each counts against the rate limits. One when unset. */
  calls?: number;
  /** The file of a multipart upload, on the routes that take one. */
  upload?: UploadedFile;
}

export type ApiRequest = Request & { ctx: RequestContext };

export function principalOf(req: Request): Principal {
  const p = (req as ApiRequest).ctx?.principal;
  if (!p) throw new Error('principalOf() called on an unauthenticated route');
  return p;
}

export function requestIdOf(req: Request): string {
  return (req as ApiRequest).ctx.requestId;
}

/** The path as the client sent it (after alias rewriting), whatever router the code is mounted on. */
export function fullPath(req: Request): string {
  return req.baseUrl + req.path;
}
