import { TopUp } from '@voiceplane/domain';
import { AutoRechargeView } from '@voiceplane/application';
import { iso, isoOrNull } from '../../presenters/format';

/** The top-up record. */
export function presentTopUp(t: TopUp) {
  return {
    id: t.id,
    amount: t.amount,
    currency: t.currency,
    status: t.status,
    trigger: t.trigger,
    checkout_url: t.checkoutUrl,
    provider: t.provider,
    failure_reason: t.failureReason,
    created_at: iso(t.createdAt),
    completed_at: isoOrNull(t.completedAt),
  };
}

/** The auto-recharge settings. */
export function presentAutoRecharge({ recharge, paymentMethodReady }: AutoRechargeView) {
  return {
    enabled: recharge.settings.enabled,
    threshold: recharge.settings.threshold,
    amount: recharge.settings.amount,
    payment_method_ready: paymentMethodReady,
    consecutive_failures: recharge.state.consecutiveFailures,
    last_attempt_at: isoOrNull(recharge.state.lastAttemptAt),
    last_error: recharge.state.lastError,
  };
}
