/**
 * Counting over a window that slides with the clock (permission asks, attempts per
 * contact): a use counts while `now` is before `use + period`, so it leaves the window exactly
 * one period after it happened.
 */
export interface SlidingWindowUsage {
  readonly periodMs: number;
  readonly max: number;
  readonly used: number;
  /** When the oldest counted use leaves the window (`limit_expiration_time`); null when none counts. */
  readonly oldestLeavesAt: Date | null;
  /** When enough uses have left for one more to fit; null while there is room now. */
  readonly freesAt: Date | null;
}

export function slidingWindowUsage(
  uses: readonly Date[],
  now: Date,
  periodMs: number,
  max: number,
): SlidingWindowUsage {
  const counted = uses
    .map((use) => use.getTime())
    .filter((at) => now.getTime() < at + periodMs)
    .sort((a, b) => a - b);
  const used = counted.length;
  return {
    periodMs,
    max,
    used,
    oldestLeavesAt: used > 0 ? new Date(counted[0] + periodMs) : null,
    freesAt: used >= max ? new Date(counted[used - max] + periodMs) : null,
  };
}

/** The latest of the given instants, ignoring nulls; null when there is none. */
export function latestOf(...instants: readonly (Date | null)[]): Date | null {
  const times = instants.filter((at): at is Date => at !== null).map((at) => at.getTime());
  return times.length > 0 ? new Date(Math.max(...times)) : null;
}
