/** IETF Idempotency-Key semantics. */
export interface StoredIdempotentRequest {
  readonly fingerprint: string;
  /**
   * `answer_lost`: the request's effect committed (the key was marked in the same transaction) but
   * its answer was never stored — the process died in between — and its lease has lapsed.
   */
  readonly state: 'in_flight' | 'done' | 'answer_lost';
  readonly responseStatus: number | null;
  readonly responseBody: string | null;
}

export type IdempotencyDecision =
  | { readonly kind: 'process' }
  | { readonly kind: 'replay'; readonly status: number; readonly body: string }
  | { readonly kind: 'reused_with_other_body' }
  | { readonly kind: 'in_flight' }
  | { readonly kind: 'answer_lost' };

export function decideIdempotentRequest(
  stored: StoredIdempotentRequest | null,
  fingerprint: string,
): IdempotencyDecision {
  if (!stored) return { kind: 'process' };
  if (stored.fingerprint !== fingerprint) return { kind: 'reused_with_other_body' };
  if (stored.state === 'in_flight') return { kind: 'in_flight' };
  // Running it again would repeat an effect that committed (a second charge): never.
  if (stored.state === 'answer_lost') return { kind: 'answer_lost' };
  return { kind: 'replay', status: stored.responseStatus ?? 200, body: stored.responseBody ?? '{}' };
}

/** 2xx and 4xx (except 409 and 429) are final answers worth replaying; 5xx may be retried. */
export function isStorableStatus(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 409 && status !== 429);
}

export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key);
}
