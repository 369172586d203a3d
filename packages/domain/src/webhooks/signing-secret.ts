/** Standard Webhooks secret rotation. */

export const ROTATION_GRACE_HOURS = 24;

export interface SigningSecretState {
  readonly secret: string;
  readonly previousSecret: string | null;
  readonly previousExpiresAt: Date | null;
}

/** When the replaced secret stops signing, for a rotation at `now`. */
export function rotationGraceEnd(now: Date): Date {
  return new Date(now.getTime() + ROTATION_GRACE_HOURS * 3_600_000);
}

/** The previous secret's expiry while it still signs, else null. */
export function previousSecretExpiry(state: SigningSecretState, now: Date): Date | null {
  if (!state.previousSecret || !state.previousExpiresAt) return null;
  return state.previousExpiresAt.getTime() > now.getTime() ? state.previousExpiresAt : null;
}

/** Secrets that sign a request sent at `now`, newest first: two during a rotation's grace period. */
export function secretsInForce(state: SigningSecretState, now: Date): string[] {
  return previousSecretExpiry(state, now) ? [state.secret, state.previousSecret as string] : [state.secret];
}
