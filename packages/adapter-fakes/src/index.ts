export { ManualClock } from './clock';
export { SequentialIds } from './ids';
export { InMemoryJobStore, type StoredJob } from './job-store';
export { InMemoryRateLimitStore } from './rate-limit-store';
export { InMemoryIdempotencyStore } from './idempotency-store';
