/**
 * Fixed-window counting: a window is identified by its start, aligned to the
 * epoch, so every instance computes the same window for the same instant.
 */
export interface Window {
  readonly start: Date;
  readonly resetAt: Date;
}

export function windowAt(now: Date, windowSeconds: number): Window {
  const size = windowSeconds * 1000;
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), resetAt: new Date(start + size) };
}

export interface LimitVerdict {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds at which the window resets. */
  readonly resetEpochSeconds: number;
  /** Whole seconds until a retry can succeed (≥ 1). */
  readonly retryAfterSeconds: number;
}

export function judgeHits(hits: number, limit: number, window: Window, now: Date): LimitVerdict {
  const untilReset = Math.max(1, Math.ceil((window.resetAt.getTime() - now.getTime()) / 1000));
  return {
    allowed: hits <= limit,
    limit,
    remaining: Math.max(0, limit - hits),
    resetEpochSeconds: Math.ceil(window.resetAt.getTime() / 1000),
    retryAfterSeconds: untilReset,
  };
}

/** When several buckets apply, report the tightest (lowest remaining; tie → the longest window). */
export function tightest<T extends LimitVerdict & { windowSeconds: number }>(verdicts: readonly T[]): T {
  return verdicts.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.windowSeconds > a.windowSeconds) ? b : a,
  );
}
