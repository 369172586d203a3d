import type { Ctor } from '../validation';

/** One operation as the OpenAPI document describes it; each controller module exports the list of its routes. */
export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/user/tools/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth?: 'user' | 'api_key' | 'admin' | 'runtime' | 'none' | 'hook';
  readonly body?: Ctor;
  readonly query?: Ctor;
  readonly success?: number;
}
