import { createVoiceplaneClient } from '@voiceplane/client';

/**
 * The session's token lives in this tab only: memory, mirrored to sessionStorage so a reload keeps
 * the person signed in. Never localStorage, never a URL.
 */
const KEY = 'voiceplane.token';
let token: string | null = sessionStorage.getItem(KEY);
let onExpired: () => void = () => undefined;

export const currentToken = (): string | null => token;
export function setToken(next: string | null): void {
  token = next;
  if (next === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, next);
}
export function whenExpired(handler: () => void): void {
  onExpired = handler;
}

/** Every request carries the current token; a 401 on a signed-in session means it expired or was revoked. */
async function authorizedFetch(request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  else headers.delete('Authorization');
  const res = await fetch(new Request(request, { headers }));
  // Only `Unauthorized` means the token is gone; a route that needs another kind of token (an API key) says so itself.
  if (res.status === 401 && token && !request.url.endsWith('/api/user/login')) {
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { error?: string } | null;
    if (body?.error === 'Unauthorized') onExpired();
  }
  return res;
}

/** The typed client of the public API (the same one any TypeScript program uses). */
export const api = createVoiceplaneClient({ baseUrl: window.location.origin, apiKey: '', fetch: authorizedFetch });

/** What an error answer says, in any of the API's error families. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(messageOf(body, status));
  }
  /** Validation messages by field (`name`, `schema.0.name`), when the answer has them. */
  get fields(): Record<string, string[]> {
    const errors = (this.body as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : {};
  }
}

function messageOf(body: unknown, status: number): string {
  const b = (body ?? {}) as { message?: unknown; error?: unknown; errors?: Record<string, string[]> };
  const first = b.errors ? Object.values(b.errors).flat()[0] : undefined;
  if (typeof b.message === 'string' && b.message !== 'The given data was invalid.') return b.message;
  if (typeof first === 'string') return first;
  if (typeof b.error === 'string') return b.error;
  if (typeof b.message === 'string') return b.message;
  return `The request failed (${status}).`;
}

/** The body of a successful answer, typed by the page that asked; an error answer is thrown as ApiError. */
export async function ok<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, error ?? data);
  return data as T;
}
