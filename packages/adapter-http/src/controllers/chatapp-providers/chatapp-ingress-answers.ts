import type { AnswerTable } from '../../pipeline/answers';

/** Why the provider ingress turns a request away (`{error}` family). */
export type IngressRefusal = 'unknown_provider' | 'verification_failed' | 'invalid_signature';

export const INGRESS_ANSWERS: AnswerTable<IngressRefusal> = {
  unknown_provider: { status: 404, body: { error: 'Unknown provider.' } },
  verification_failed: { status: 403, body: { error: 'Verification failed.' } },
  invalid_signature: { status: 401, body: { error: 'Invalid signature.' } },
};
