import type Stripe from 'stripe';

let stripeModule: typeof Stripe | undefined;
/** The library, loaded on first use: an api without Stripe configured never pays for loading it at start. */
export function stripeLibrary(): typeof Stripe {
  return (stripeModule ??= require('stripe') as typeof Stripe);
}

export interface StripeSettings {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** A local stub's base URL in tests; the real API otherwise. */
  readonly apiBase: string | null;
  /** Where Checkout sends the payer back (PUBLIC_BASE_URL). */
  readonly returnUrl: string;
}

/** How long one request to Stripe may take before it counts as an outage. */
const REQUEST_TIMEOUT_MS = 20_000;

/** The official client, pointed at `apiBase` when one is given (host, port and protocol are its options). */
export function createStripeClient(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : null;
  const StripeClient = stripeLibrary();
  return new StripeClient(settings.secretKey, {
    maxNetworkRetries: 1,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

/** Stripe charges USD in cents; top-up amounts have whole cents (domain amount rules). */
export const toCents = (amount: number): number => Math.round(amount * 100);

/** Metadata keys voiceplane writes on what it creates at Stripe. */
export const METADATA = {
  userId: 'voiceplane_user_id',
  topUpId: 'voiceplane_top_up_id',
  trigger: 'voiceplane_trigger',
} as const;

/** The id of an expandable field, whether Stripe sent the id or the object. */
export const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  typeof ref === 'string' ? ref : (ref?.id ?? null);
