import createClient from 'openapi-fetch';
import type { paths } from './generated/schema';

export type { components, operations, paths } from './generated/schema';

export interface VoiceplaneClientOptions {
  /** The server's address, e.g. `http://127.0.0.1:3000` (a trailing `/api` is accepted too). */
  readonly baseUrl: string;
  /** An API key (`vp_…`) or a session token (`vps_…`). */
  readonly apiKey: string;
  /** Another fetch (tests, proxies); the global one by default. */
  readonly fetch?: (input: Request) => Promise<Response>;
  /** Extra headers on every request (e.g. a `User-Agent`). */
  readonly headers?: Record<string, string>;
}

/**
 * A typed client for the voiceplane API: paths, parameters, request bodies and error answers are checked at
 * compile time against the types generated from the API's OpenAPI document (`./schema`).
 *
 * ```ts
 * const api = createVoiceplaneClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.VOICEPLANE_KEY! });
 * const { data, error, response } = await api.POST('/api/user/assistant', { body: { name: 'Front desk' } });
 * ```
 */
export function createVoiceplaneClient(options: VoiceplaneClientOptions) {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/api$/, ''),
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type VoiceplaneClient = ReturnType<typeof createVoiceplaneClient>;
