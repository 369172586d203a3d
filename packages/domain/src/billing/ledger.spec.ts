import { canAfford, postCharge, postOperatorAmount } from './ledger';

describe('ledger postings', () => {
  it.each([
    [25, 0.05, true, 24.95],
    [0.05, 0.05, true, 0],
    [0.04, 0.05, false, null],
    [0, 0.0001, false, null],
  ])('balance %p charged %p → allowed %p', (balance, price, allowed, after) => {
    const r = postCharge(balance, price);
    expect(r.ok).toBe(allowed);
    if (r.ok) expect(r.value).toEqual({ type: 'charge', amount: -price, balanceAfter: after });
    else expect(r.error).toEqual({ code: 'insufficient_balance', balance, required: price });
  });

  it('lets call-end charges take the balance below zero', () => {
    const r = postCharge(0.1, 0.3, true);
    expect(r.ok && r.value.balanceAfter).toBeCloseTo(-0.2, 10);
  });

  it('keeps four-decimal precision where floats would drift', () => {
    let balance = 0.3;
    for (let i = 0; i < 3; i++) {
      const r = postCharge(balance, 0.1);
      if (!r.ok) throw new Error('refused');
      balance = r.value.balanceAfter;
    }
    expect(balance).toBe(0);
    expect(canAfford(0.1 + 0.2, 0.3)).toBe(true);
  });

  it('classifies operator amounts as top-up or adjustment', () => {
    expect(postOperatorAmount(1, 2.5)).toEqual({ type: 'top_up', amount: 2.5, balanceAfter: 3.5 });
    expect(postOperatorAmount(1, -0.25)).toEqual({ type: 'adjustment', amount: -0.25, balanceAfter: 0.75 });
  });
});
