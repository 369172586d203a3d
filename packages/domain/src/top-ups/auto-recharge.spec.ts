import { AutoRecharge, changeAutoRecharge, newAutoRecharge } from './auto-recharge';

const AT = new Date('2026-03-01T10:00:00.000Z');
const fresh = newAutoRecharge(7);

describe('auto-recharge settings', () => {
  it('starts with the defaults of the settings record', () => {
    expect(fresh).toEqual({
      userId: 7,
      settings: { enabled: false, threshold: 5, amount: 25 },
      state: { consecutiveFailures: 0, lastAttemptAt: null, lastError: null, inFlightTopUpId: null },
    });
  });

  it('changes only the sent fields', () => {
    expect(changeAutoRecharge(fresh, { threshold: 10 }, false)).toEqual({
      ok: true,
      value: { ...fresh, settings: { enabled: false, threshold: 10, amount: 25 } },
    });
    expect(changeAutoRecharge(fresh, { amount: 100, threshold: undefined }, false)).toEqual({
      ok: true,
      value: { ...fresh, settings: { enabled: false, threshold: 5, amount: 100 } },
    });
  });

  it('enables with a saved payment method', () => {
    const r = changeAutoRecharge(fresh, { enabled: true, threshold: 0, amount: 10_000 }, true);
    expect(r.ok && r.value.settings).toEqual({ enabled: true, threshold: 0, amount: 10_000 });
  });

  it('refuses to enable without a saved payment method', () => {
    expect(changeAutoRecharge(fresh, { enabled: true }, false)).toEqual({
      ok: false,
      error: { enabled: ['payment_method_required'] },
    });
  });

  it('disables without a payment method', () => {
    const on: AutoRecharge = { ...fresh, settings: { ...fresh.settings, enabled: true } };
    const r = changeAutoRecharge(on, { enabled: false }, false);
    expect(r.ok && r.value.settings.enabled).toBe(false);
  });

  it.each([
    [{ threshold: -1 }, { threshold: [{ code: 'between', min: 0, max: 1_000 }] }],
    [{ threshold: 1_000.5 }, { threshold: [{ code: 'between', min: 0, max: 1_000 }] }],
    [{ threshold: 5.555 }, { threshold: [{ code: 'decimals', max: 2 }] }],
    [{ amount: 4.99 }, { amount: [{ code: 'between', min: 5, max: 10_000 }] }],
    [{ amount: 10_001 }, { amount: [{ code: 'between', min: 5, max: 10_000 }] }],
    [{ amount: 25.001 }, { amount: [{ code: 'decimals', max: 2 }] }],
    [
      { enabled: true, threshold: 2_000, amount: 1 },
      {
        threshold: [{ code: 'between', min: 0, max: 1_000 }],
        amount: [{ code: 'between', min: 5, max: 10_000 }],
        enabled: ['payment_method_required'],
      },
    ],
  ])('%j → %j, and nothing changes', (changes, problems) => {
    expect(changeAutoRecharge(fresh, changes, false)).toEqual({ ok: false, error: problems });
  });

  it('turning it back on starts the failure count afresh and keeps the last error', () => {
    const switchedOff: AutoRecharge = {
      ...fresh,
      settings: { ...fresh.settings, enabled: false },
      state: { consecutiveFailures: 3, lastAttemptAt: AT, lastError: 'card_declined', inFlightTopUpId: null },
    };
    const r = changeAutoRecharge(switchedOff, { enabled: true }, true);
    expect(r.ok && r.value.state).toEqual({
      consecutiveFailures: 0,
      lastAttemptAt: AT,
      lastError: 'card_declined',
      inFlightTopUpId: null,
    });
  });

  it('keeps the failure count when it was already on', () => {
    const on: AutoRecharge = {
      ...fresh,
      settings: { ...fresh.settings, enabled: true },
      state: { ...fresh.state, consecutiveFailures: 2 },
    };
    const r = changeAutoRecharge(on, { enabled: true, amount: 30 }, true);
    expect(r.ok && r.value.state.consecutiveFailures).toBe(2);
  });
});
