import {
  CHECKOUT_GIVE_UP_MS,
  needsReconciliation,
  RECONCILE_AFTER_MS,
  RECONCILE_GIVE_UP_MS,
  reconcileTopUp,
} from './reconciliation';
import { TopUp } from './top-up';

const T0 = new Date('2030-04-01T09:00:00.000Z');
const after = (ms: number) => new Date(T0.getTime() + ms);
const checkout: TopUp = {
  id: 5,
  userId: 7,
  amount: 50,
  currency: 'USD',
  status: 'pending',
  trigger: 'checkout',
  checkoutUrl: 'https://pay.example/5',
  provider: 'stripe',
  failureReason: null,
  createdAt: T0,
  completedAt: null,
};

describe('reconciling a checkout whose event never came', () => {
  it('is looked at once 15 minutes old while pending; never once settled', () => {
    expect(needsReconciliation(checkout, after(RECONCILE_AFTER_MS - 1))).toBe(false);
    expect(needsReconciliation(checkout, after(RECONCILE_AFTER_MS))).toBe(true);
    expect(
      needsReconciliation(
        { ...checkout, status: 'failed', failureReason: 'provider_error' },
        after(RECONCILE_AFTER_MS),
      ),
    ).toBe(false);
    expect(needsReconciliation({ ...checkout, status: 'expired' }, after(RECONCILE_AFTER_MS))).toBe(false);
  });

  it('paid → succeeded with its credit; expired → expired without one; still open → wait, then left to operators an hour past its page', () => {
    const now = after(RECONCILE_AFTER_MS);
    const paid = reconcileTopUp(checkout, { kind: 'succeeded' }, now);
    expect(
      paid.ok &&
        paid.value.kind === 'settle' && [paid.value.settlement.next.status, paid.value.settlement.credit?.amount],
    ).toEqual(['succeeded', 50]);
    const expired = reconcileTopUp(checkout, { kind: 'expired' }, now);
    expect(
      expired.ok &&
        expired.value.kind === 'settle' && [expired.value.settlement.next.status, expired.value.settlement.credit],
    ).toEqual(['expired', null]);
    expect(reconcileTopUp(checkout, { kind: 'processing' }, after(RECONCILE_GIVE_UP_MS))).toEqual({
      ok: true,
      value: { kind: 'wait' },
    });
    expect(reconcileTopUp(checkout, { kind: 'processing' }, after(CHECKOUT_GIVE_UP_MS))).toEqual({
      ok: true,
      value: { kind: 'unreconcilable', reason: 'still_processing' },
    });
  });
});
