import { token } from '../shared/token';
import type { RateLimiter } from './rate-limiter';

export const RATE_LIMIT_TOKENS = {
  RateLimiter: token<RateLimiter>('RateLimiter'),
} as const;
