import { token } from '../common';
import type { RateLimiter } from './rate-limiter';

export const RATE_LIMIT_TOKENS = {
  RateLimiter: token<RateLimiter>('RateLimiter'),
} as const;
