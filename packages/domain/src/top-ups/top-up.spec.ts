import { newTopUp, NewTopUp } from './top-up';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const input = (over: Partial<NewTopUp> = {}): NewTopUp => ({
  id: 31,
  userId: 7,
  amount: 50,
  provider: 'sandbox',
  payment: { trigger: 'checkout', checkoutUrl: 'https://pay.example/31' },
  now: NOW,
  ...over,
});

describe('newTopUp', () => {
  it('opens a pending checkout top-up with the record', () => {
    expect(newTopUp(input())).toEqual({
      ok: true,
      value: {
        id: 31,
        userId: 7,
        amount: 50,
        currency: 'USD',
        status: 'pending',
        trigger: 'checkout',
        checkoutUrl: 'https://pay.example/31',
        provider: 'sandbox',
        failureReason: null,
        createdAt: NOW,
        completedAt: null,
      },
    });
  });

  it('gives an auto top-up no checkout URL', () => {
    const r = newTopUp(input({ payment: { trigger: 'auto' }, provider: 'stripe', amount: 25 }));
    expect(r.ok && r.value).toMatchObject({
      trigger: 'auto',
      checkoutUrl: null,
      provider: 'stripe',
      amount: 25,
      status: 'pending',
    });
  });

  it.each([
    [4.99, [{ code: 'between', min: 5, max: 10_000 }]],
    [50.001, [{ code: 'decimals', max: 2 }]],
  ])('refuses amount %p', (amount, problems) => {
    expect(newTopUp(input({ amount }))).toEqual({ ok: false, error: problems });
  });
});
