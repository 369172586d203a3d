import { canAfford } from '../billing/ledger';
import { balanceForNewCall } from './prices';

describe('balanceForNewCall', () => {
  const prices = { phone: 0.1, chatapp: 0.08 };

  it('speaks for the first minute of every call in progress, per channel', () => {
    expect(balanceForNewCall(1, { phone: 0, chatapp: 0 }, prices)).toBe(1);
    expect(balanceForNewCall(1, { phone: 2, chatapp: 3 }, prices)).toBe(0.56);
    expect(balanceForNewCall(0.3, { phone: 3, chatapp: 1 }, prices)).toBe(-0.08);
  });

  it('lets a one-minute balance start one call, not two', () => {
    expect(canAfford(balanceForNewCall(0.08, { phone: 0, chatapp: 0 }, prices), prices.chatapp)).toBe(true);
    expect(canAfford(balanceForNewCall(0.08, { phone: 0, chatapp: 1 }, prices), prices.chatapp)).toBe(false);
    expect(canAfford(balanceForNewCall(0.18, { phone: 1, chatapp: 0 }, prices), prices.chatapp)).toBe(true);
  });
});
