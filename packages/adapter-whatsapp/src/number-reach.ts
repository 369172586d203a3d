import type { QualityRating } from '@voiceplane/domain';

/**
 * Meta's messaging-limit tier (`TIER_250`, `TIER_1K`, `TIER_10K`, `TIER_UNLIMITED`, …) as new
 * customers per 24 hours: `{ value: null }` is unlimited; null is a tier we cannot read.
 */
export function messagingLimitOfTier(tier: unknown): { value: number | null } | null {
  if (typeof tier !== 'string') return null;
  const t = tier.trim().toUpperCase();
  if (t === 'TIER_UNLIMITED') return { value: null };
  const m = /^TIER_(\d{1,7})(K?)$/.exec(t);
  return m ? { value: Number(m[1]) * (m[2] === 'K' ? 1000 : 1) } : null;
}

/** Graph's `quality_rating` of a number; `UNKNOWN`/`NA` (a new number not rated yet) reads as null. */
export function qualityRatingOf(rating: unknown): QualityRating | null {
  if (typeof rating !== 'string') return null;
  const r = rating.trim().toUpperCase();
  return r === 'GREEN' || r === 'YELLOW' || r === 'RED' ? r : null;
}
