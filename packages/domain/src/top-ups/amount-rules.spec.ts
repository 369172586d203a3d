import {
  AUTO_RECHARGE_THRESHOLD_RANGE,
  billingAmountProblems,
  hasWholeCents,
  TOP_UP_AMOUNT_RANGE,
} from './amount-rules';

const BETWEEN = { code: 'between', min: 5, max: 10_000 };
const DECIMALS = { code: 'decimals', max: 2 };

describe('top-up amount (5–10000, at most 2 decimals)', () => {
  it.each([5, 5.01, 19.99, 50, 0.1 + 0.2 + 9.7, 9_999.99, 10_000])('%p is accepted', (amount) => {
    expect(billingAmountProblems(amount, TOP_UP_AMOUNT_RANGE)).toEqual([]);
  });

  it.each([
    [4.99, [BETWEEN]],
    [0, [BETWEEN]],
    [-50, [BETWEEN]],
    [10_000.01, [BETWEEN]],
    [1e20, [BETWEEN]],
    [5.001, [DECIMALS]],
    [19.999, [DECIMALS]],
    [50.5555, [DECIMALS]],
    [4.999, [BETWEEN, DECIMALS]],
    [Number.NaN, [BETWEEN]],
    [Number.POSITIVE_INFINITY, [BETWEEN]],
  ])('%p is refused with %j', (amount, problems) => {
    expect(billingAmountProblems(amount, TOP_UP_AMOUNT_RANGE)).toEqual(problems);
  });
});

describe('auto-recharge threshold (0–1000)', () => {
  it.each([0, 0.01, 1_000])('%p is accepted', (threshold) => {
    expect(billingAmountProblems(threshold, AUTO_RECHARGE_THRESHOLD_RANGE)).toEqual([]);
  });

  it.each([-0.01, 1_000.01])('%p is out of range', (threshold) => {
    expect(billingAmountProblems(threshold, AUTO_RECHARGE_THRESHOLD_RANGE)).toEqual([
      { code: 'between', min: 0, max: 1_000 },
    ]);
  });
});

describe('hasWholeCents', () => {
  it('reads binary fractions as the decimals a user typed', () => {
    expect(hasWholeCents(19.99)).toBe(true);
    expect(hasWholeCents(1.15)).toBe(true);
    expect(hasWholeCents(0.07)).toBe(true);
    expect(hasWholeCents(0.005)).toBe(false);
    expect(hasWholeCents(9_999.995)).toBe(false);
  });
});
