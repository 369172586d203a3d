import { windowAt } from '../ratelimit/fixed-window';

/**
 * Per-user quotas of the two voice routes. The route refuses them with an
 * uncoded 429 through the shared rate limiter; the preflight reports `quota_exhausted`
 * from the same fixed-window counts.
 */
export interface UserQuota {
  readonly limit: number;
  readonly windowSeconds: number;
}

export const PERMISSION_REQUEST_QUOTAS: readonly UserQuota[] = [
  { limit: 5, windowSeconds: 60 },
  { limit: 20, windowSeconds: 3_600 },
  { limit: 50, windowSeconds: 86_400 },
];

export const CHATAPP_CALL_QUOTAS: readonly UserQuota[] = [
  { limit: 5, windowSeconds: 60 },
  { limit: 15, windowSeconds: 3_600 },
  { limit: 30, windowSeconds: 86_400 },
];

/** Requests already counted in the quota's current fixed window. */
export interface QuotaUsage {
  readonly quota: UserQuota;
  readonly used: number;
}

export interface QuotaStanding {
  /** One more request would be refused. */
  readonly exhausted: boolean;
  /** When every used-up window has reset; null while there is room. */
  readonly nextAllowedAt: Date | null;
}

export function quotaStanding(usage: readonly QuotaUsage[], now: Date): QuotaStanding {
  const resets = usage
    .filter((u) => u.used >= u.quota.limit)
    .map((u) => windowAt(now, u.quota.windowSeconds).resetAt.getTime());
  if (resets.length === 0) return { exhausted: false, nextAllowedAt: null };
  return { exhausted: true, nextAllowedAt: new Date(Math.max(...resets)) };
}
