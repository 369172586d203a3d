import { postTopUpCredit, settleTopUp, TopUpOutcome } from './settlement';
import { TopUp, TopUpStatus } from './top-up';

const CREATED = new Date('2026-03-01T10:00:00.000Z');
const NOW = new Date('2026-03-01T10:05:00.000Z');
const LATER = new Date('2026-03-02T10:05:00.000Z');

const topUp = (status: TopUpStatus = 'pending', over: Partial<TopUp> = {}): TopUp => ({
  id: 31,
  userId: 7,
  amount: 50,
  currency: 'USD',
  status,
  trigger: 'checkout',
  checkoutUrl: 'https://pay.example/31',
  provider: 'stripe',
  failureReason: null,
  createdAt: CREATED,
  completedAt: status === 'pending' ? null : NOW,
  ...over,
});

const SUCCEEDED: TopUpOutcome = { kind: 'succeeded' };
const DECLINED: TopUpOutcome = { kind: 'failed', reason: 'card_declined' };
const EXPIRED: TopUpOutcome = { kind: 'expired' };

describe('settleTopUp: from pending', () => {
  it('succeeded: completes, credits the amount once with "Top-up 31", raises top_up.succeeded', () => {
    expect(settleTopUp(topUp(), SUCCEEDED, NOW)).toEqual({
      ok: true,
      value: {
        next: topUp('succeeded', { completedAt: NOW }),
        credit: { amount: 50, description: 'Top-up 31', reference: { type: 'top_up', id: 31 } },
        events: [{ name: 'top_up.succeeded', topUpId: 31, userId: 7, trigger: 'checkout' }],
      },
    });
  });

  it('failed: records the provider reason, credits nothing, raises top_up.failed', () => {
    expect(settleTopUp(topUp(), DECLINED, NOW)).toEqual({
      ok: true,
      value: {
        next: topUp('failed', { completedAt: NOW, failureReason: 'card_declined' }),
        credit: null,
        events: [{ name: 'top_up.failed', topUpId: 31, userId: 7, trigger: 'checkout' }],
      },
    });
  });

  it('expired: credits nothing, no failure reason, raises top_up.expired', () => {
    expect(settleTopUp(topUp(), EXPIRED, NOW)).toEqual({
      ok: true,
      value: {
        next: topUp('expired', { completedAt: NOW }),
        credit: null,
        events: [{ name: 'top_up.expired', topUpId: 31, userId: 7, trigger: 'checkout' }],
      },
    });
  });

  it('tells an auto top-up apart in its event', () => {
    const r = settleTopUp(topUp('pending', { trigger: 'auto', checkoutUrl: null }), DECLINED, NOW);
    expect(r.ok && r.value.events).toEqual([{ name: 'top_up.failed', topUpId: 31, userId: 7, trigger: 'auto' }]);
  });

  it('leaves the given top-up as it was', () => {
    const pending = topUp();
    settleTopUp(pending, SUCCEEDED, NOW);
    expect(pending).toEqual(topUp());
  });
});

describe('settleTopUp: a settled top-up never changes (replays, late and out-of-order events)', () => {
  const settled = ['succeeded', 'failed', 'expired'] as const;
  const outcomes = [SUCCEEDED, DECLINED, EXPIRED];

  it.each(settled.flatMap((status) => outcomes.map((outcome) => [status, outcome.kind, outcome] as const)))(
    '%s + %s → already_settled, no credit, no event',
    (status, _kind, outcome) => {
      expect(settleTopUp(topUp(status), outcome, LATER)).toEqual({
        ok: false,
        error: { code: 'already_settled', status },
      });
    },
  );

  it('an expired after succeeded changes nothing', () => {
    const first = settleTopUp(topUp(), SUCCEEDED, NOW);
    if (!first.ok) throw new Error('expected the first outcome to settle');
    expect(settleTopUp(first.value.next, EXPIRED, LATER)).toEqual({
      ok: false,
      error: { code: 'already_settled', status: 'succeeded' },
    });
    expect(first.value.next.status).toBe('succeeded');
  });

  it('credits exactly once across a stream of replayed and late provider events', () => {
    let current = topUp();
    let balance = 1.25;
    let credits = 0;
    for (const outcome of [SUCCEEDED, SUCCEEDED, EXPIRED, DECLINED, SUCCEEDED]) {
      const r = settleTopUp(current, outcome, NOW);
      if (!r.ok) continue;
      current = r.value.next;
      if (r.value.credit) {
        credits += 1;
        balance = postTopUpCredit(balance, r.value.credit).balanceAfter;
      }
    }
    expect(credits).toBe(1);
    expect(balance).toBe(51.25);
    expect(current).toEqual(topUp('succeeded', { completedAt: NOW }));
  });

  it('a payment reported after the session expired credits nothing', () => {
    const expired = settleTopUp(topUp(), EXPIRED, NOW);
    if (!expired.ok) throw new Error('expected expiry to settle');
    expect(settleTopUp(expired.value.next, SUCCEEDED, LATER)).toEqual({
      ok: false,
      error: { code: 'already_settled', status: 'expired' },
    });
  });
});

describe('postTopUpCredit', () => {
  it('posts a top_up entry in four-decimal arithmetic', () => {
    expect(
      postTopUpCredit(0.1 + 0.2, { amount: 19.99, description: 'Top-up 31', reference: { type: 'top_up', id: 31 } }),
    ).toEqual({ type: 'top_up', amount: 19.99, balanceAfter: 20.29 });
  });

  it('lifts a negative balance', () => {
    expect(
      postTopUpCredit(-0.3, { amount: 5, description: 'Top-up 31', reference: { type: 'top_up', id: 31 } })
        .balanceAfter,
    ).toBe(4.7);
  });
});
