import {
  allowancePeriod,
  allowanceRemaining,
  DEFAULT_CHATAPP_PRICES,
  priceFreeformSend,
  priceTemplateSend,
} from './pricing';

const prices = DEFAULT_CHATAPP_PRICES;

describe('chat-app send prices', () => {
  it('defaults: template 0.05, freeform 0.01', () => {
    expect(prices).toEqual({ templateMessage: 0.05, freeformMessage: 0.01 });
  });

  it('a template send uses the allowance first, even with no balance', () => {
    expect(priceTemplateSend(1, 0, prices)).toEqual({ ok: true, value: { source: 'allowance', amount: 0 } });
  });

  it('without allowance the template price is charged to the balance', () => {
    expect(priceTemplateSend(0, 0.05, prices)).toEqual({ ok: true, value: { source: 'balance', amount: 0.05 } });
  });

  it('without allowance and with too little balance: INSUFFICIENT_BALANCE', () => {
    expect(priceTemplateSend(0, 0.0499, prices)).toEqual({
      ok: false,
      error: { code: 'insufficient_balance', balance: 0.0499, required: 0.05 },
    });
  });

  it('freeform: balance must cover the freeform price (the allowance never applies)', () => {
    expect(priceFreeformSend(0.01, prices)).toEqual({ ok: true, value: { source: 'balance', amount: 0.01 } });
    expect(priceFreeformSend(0.0099, prices)).toEqual({
      ok: false,
      error: { code: 'insufficient_balance', balance: 0.0099, required: 0.01 },
    });
  });

  it('configured prices are used', () => {
    expect(priceTemplateSend(0, 1, { templateMessage: 0.5, freeformMessage: 0.2 })).toEqual({
      ok: true,
      value: { source: 'balance', amount: 0.5 },
    });
  });
});

describe('template allowance period', () => {
  it.each([
    ['2026-03-15T12:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-03-31T23:59:59.999Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-12-10T08:00:00.000Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
  ])('at %s the period is %s → %s (UTC)', (now, startsAt, resetsAt) => {
    expect(allowancePeriod(new Date(now))).toEqual({ startsAt: new Date(startsAt), resetsAt: new Date(resetsAt) });
  });

  it('remaining never goes below zero', () => {
    expect(allowanceRemaining(100, 40)).toBe(60);
    expect(allowanceRemaining(100, 100)).toBe(0);
    expect(allowanceRemaining(10, 40)).toBe(0);
  });
});
