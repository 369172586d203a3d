import { err, Result, TopUp, TopUpRefusal } from '@voiceplane/domain';
import { hashToken } from '../accounts';
import { TopUpRepository } from './repositories';
import { SettleTopUp } from './settle-top-up';

/** The `failure_reason` of a sandbox payment the payer declined, as a declined card at a real provider reads. */
export const SANDBOX_DECLINE_REASON = 'card_declined';

/**
 * The sandbox checkout's address carries a one-time token; the top-up keeps only its SHA-256, as the
 * provider reference, so the database alone cannot pay anything.
 */
export const sandboxCheckoutReference = (token: string): string => `sandbox_checkout:${hashToken(token)}`;

/** What the payer chose on the sandbox checkout page. */
export type SandboxPayment = 'pay' | 'decline';

/**
 * The sandbox's checkout page (the stand-in for a provider's hosted payment page): whoever holds the
 * link sees the top-up and pays or declines it once, settling it as the provider's word would.
 */
export class SandboxCheckout {
  constructor(
    private readonly topUps: TopUpRepository,
    private readonly settle: SettleTopUp,
  ) {}

  /** The checkout top-up the token opens; null for a token that opens none. */
  async open(token: string): Promise<TopUp | null> {
    const topUp = await this.topUps.findByProviderReference('sandbox', sandboxCheckoutReference(token));
    return topUp?.trigger === 'checkout' ? topUp : null;
  }

  async pay(token: string, choice: SandboxPayment): Promise<Result<TopUp, TopUpRefusal>> {
    const topUp = await this.open(token);
    if (!topUp) return err('top_up_not_found');
    return this.settle.execute(
      topUp.id,
      choice === 'pay' ? { kind: 'succeeded' } : { kind: 'failed', reason: SANDBOX_DECLINE_REASON },
      { trigger: 'checkout' },
    );
  }
}
