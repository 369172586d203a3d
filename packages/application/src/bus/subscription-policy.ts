import { SubscriptionOptions } from '../ports';

/** Subscription options with the defaults and limits every bus implementation applies alike. */
export interface SubscriptionPolicy {
  readonly consumer: string;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly prefetch: number;
  readonly transient: boolean;
}

const DEFAULTS = { maxRetries: 5, retryDelayMs: 1_000, prefetch: 10 } as const;

// Consumer names become queue names on RabbitMQ; the same rule here keeps a name that works in
// single-process mode from failing only once a broker is configured.
const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function subscriptionPolicy(options: SubscriptionOptions): SubscriptionPolicy {
  const policy = {
    consumer: options.consumer,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    retryDelayMs: options.retryDelayMs ?? DEFAULTS.retryDelayMs,
    prefetch: options.prefetch ?? DEFAULTS.prefetch,
    transient: options.transient ?? false,
  };
  if (!CONSUMER_NAME.test(policy.consumer)) {
    throw new RangeError(`consumer name ${JSON.stringify(policy.consumer)} must match ${CONSUMER_NAME}`);
  }
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) {
    throw new RangeError(`maxRetries must be a whole number ≥ 0, got ${policy.maxRetries}`);
  }
  if (!Number.isFinite(policy.retryDelayMs) || policy.retryDelayMs < 0) {
    throw new RangeError(`retryDelayMs must be ≥ 0, got ${policy.retryDelayMs}`);
  }
  if (!Number.isInteger(policy.prefetch) || policy.prefetch < 1) {
    throw new RangeError(`prefetch must be a whole number ≥ 1, got ${policy.prefetch}`);
  }
  return policy;
}
