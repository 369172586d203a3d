import { postCharge } from '../billing/ledger';
import { AutoRecharge, AutoRechargeSettings, AutoRechargeState, INITIAL_AUTO_RECHARGE_STATE } from './auto-recharge';
import {
  beginRecharge,
  RechargeDecision,
  settleRecharge,
  shouldRecharge,
  undoRechargeFailure,
} from './recharge-policy';
import { postTopUpCredit, settleTopUp, TopUpOutcome } from './settlement';
import { newTopUp, TopUp, TopUpStatus } from './top-up';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number, seconds = 0): Date => new Date(T0.getTime() + (minutes * 60 + seconds) * 1_000);

const ON: AutoRechargeSettings = { enabled: true, threshold: 5, amount: 25 };
const IDLE: AutoRechargeState = INITIAL_AUTO_RECHARGE_STATE;
const START: RechargeDecision = { recharge: true, amount: 25 };
const skip = (reason: string): RechargeDecision => ({ recharge: false, reason }) as RechargeDecision;

const account = (
  settings: Partial<AutoRechargeSettings> = {},
  state: Partial<AutoRechargeState> = {},
): AutoRecharge => ({
  userId: 7,
  settings: { ...ON, ...settings },
  state: { ...IDLE, ...state },
});

const autoTopUp = (id: number, status: TopUpStatus = 'pending', failureReason: string | null = null): TopUp => ({
  id,
  userId: 7,
  amount: 25,
  currency: 'USD',
  status,
  trigger: 'auto',
  checkoutUrl: null,
  provider: 'stripe',
  failureReason,
  createdAt: T0,
  completedAt: status === 'pending' ? null : T0,
});

describe('shouldRecharge', () => {
  it.each([
    ['a charge crossing the threshold', ON, IDLE, 6, 4.99, T0, START],
    ['a charge landing exactly on the threshold', ON, IDLE, 6, 5, T0, skip('not_below_threshold')],
    ['a charge staying above it', ON, IDLE, 30, 29.95, T0, skip('not_below_threshold')],
    ['a charge while already below (a previous attempt failed)', ON, IDLE, 4, 3.95, T0, START],
    ['a call-end charge taking the balance below zero', ON, IDLE, 0.5, -0.3, T0, START],
    ['threshold 0: down to exactly 0', { ...ON, threshold: 0 }, IDLE, 0.05, 0, T0, skip('not_below_threshold')],
    ['threshold 0: below zero', { ...ON, threshold: 0 }, IDLE, 0.05, -0.05, T0, START],
    ['a crossing while disabled', { ...ON, enabled: false }, IDLE, 6, 4.99, T0, skip('disabled')],
    ['a credit below the threshold', ON, IDLE, 1, 3, T0, skip('not_a_charge')],
    ['a zero charge below the threshold', ON, IDLE, 3, 3, T0, skip('not_a_charge')],
    ['a crossing with an attempt in flight', ON, { ...IDLE, inFlightTopUpId: 40 }, 6, 4.99, T0, skip('in_flight')],
    [
      'a crossing 9 min 59 s after the last attempt',
      ON,
      { ...IDLE, lastAttemptAt: at(0) },
      6,
      4.99,
      at(9, 59),
      skip('too_soon'),
    ],
    ['a crossing 10 min after the last attempt', ON, { ...IDLE, lastAttemptAt: at(0) }, 6, 4.99, at(10), START],
    ['a crossing an hour after the last attempt', ON, { ...IDLE, lastAttemptAt: at(0) }, 6, 4.99, at(60), START],
  ] as const)('%s', (_name, settings, state, before, after, now, decision) => {
    expect(shouldRecharge(settings, state, before, after, now)).toEqual(decision);
  });

  it('compares in four-decimal money, not binary fractions', () => {
    expect(shouldRecharge({ ...ON, threshold: 0.3 }, IDLE, 0.4, 0.1 + 0.2, T0)).toEqual(skip('not_below_threshold'));
  });

  it('recharges by the configured amount', () => {
    expect(shouldRecharge({ ...ON, amount: 100 }, IDLE, 6, 1, T0)).toEqual({ recharge: true, amount: 100 });
  });
});

describe('beginRecharge', () => {
  it('marks the attempt in flight and raises the event that charges the card', () => {
    expect(beginRecharge(account(), autoTopUp(40), at(3))).toEqual({
      ok: true,
      value: {
        next: account({}, { inFlightTopUpId: 40, lastAttemptAt: at(3) }),
        events: [{ name: 'auto_recharge.started', userId: 7, topUpId: 40 }],
      },
    });
  });

  it('never starts a second attempt while one is in flight', () => {
    expect(beginRecharge(account({}, { inFlightTopUpId: 40 }), autoTopUp(41), at(30))).toEqual({
      ok: false,
      error: 'in_flight',
    });
  });
});

describe('settleRecharge', () => {
  const inFlight = (failures: number, settings: Partial<AutoRechargeSettings> = {}) =>
    account(settings, {
      inFlightTopUpId: 40,
      lastAttemptAt: T0,
      consecutiveFailures: failures,
      lastError: failures > 0 ? 'insufficient_funds' : null,
    });

  it('a success clears the failure count and the last error', () => {
    expect(settleRecharge(inFlight(2), autoTopUp(40, 'succeeded'))).toEqual({
      ok: true,
      value: { next: account({}, { lastAttemptAt: T0 }), events: [] },
    });
  });

  it.each([
    [0, 1],
    [1, 2],
  ])('a decline after %i failures counts %i and records the reason, still enabled', (before, after) => {
    expect(settleRecharge(inFlight(before), autoTopUp(40, 'failed', 'card_declined'))).toEqual({
      ok: true,
      value: {
        next: account({}, { lastAttemptAt: T0, consecutiveFailures: after, lastError: 'card_declined' }),
        events: [],
      },
    });
  });

  it('the third decline in a row disables auto-recharge', () => {
    expect(settleRecharge(inFlight(2), autoTopUp(40, 'failed', 'card_declined'))).toEqual({
      ok: true,
      value: {
        next: account({ enabled: false }, { lastAttemptAt: T0, consecutiveFailures: 3, lastError: 'card_declined' }),
        events: [{ name: 'auto_recharge.disabled', userId: 7, topUpId: 40 }],
      },
    });
  });

  it('an expiry counts as a failure, recorded as expired', () => {
    const r = settleRecharge(inFlight(0), autoTopUp(40, 'expired'));
    expect(r.ok && r.value.next.state).toEqual({
      inFlightTopUpId: null,
      lastAttemptAt: T0,
      consecutiveFailures: 1,
      lastError: 'expired',
    });
  });

  it('a third failure after the user switched it off raises nothing', () => {
    const r = settleRecharge(inFlight(2, { enabled: false }), autoTopUp(40, 'failed', 'card_declined'));
    expect(r.ok && r.value).toEqual({
      next: account({ enabled: false }, { lastAttemptAt: T0, consecutiveFailures: 3, lastError: 'card_declined' }),
      events: [],
    });
  });

  it.each([
    ['another top-up', inFlight(0), autoTopUp(39, 'failed', 'card_declined'), 'not_in_flight'],
    ['no attempt in flight', account(), autoTopUp(40, 'succeeded'), 'not_in_flight'],
    ['a top-up still pending', inFlight(0), autoTopUp(40), 'still_pending'],
  ] as const)('%s changes nothing', (_name, recharge, topUp, refusal) => {
    expect(settleRecharge(recharge, topUp)).toEqual({ ok: false, error: refusal });
  });
});

/**
 * What the application does per charge, under the account's balance lock: post the charge, ask the
 * policy, and when it says so open an auto top-up and mark it in flight.
 */
class Account {
  balance: number;
  recharge: AutoRecharge;
  readonly started: TopUp[] = [];
  private nextTopUpId = 100;

  constructor(balance: number, settings: AutoRechargeSettings = ON) {
    this.balance = balance;
    this.recharge = { userId: 7, settings, state: IDLE };
  }

  charge(price: number, now: Date): void {
    const posting = postCharge(this.balance, price, true);
    if (!posting.ok) throw new Error('the charge was refused');
    const before = this.balance;
    this.balance = posting.value.balanceAfter;
    if (!shouldRecharge(this.recharge.settings, this.recharge.state, before, this.balance, now).recharge) return;
    const topUp = newTopUp({
      id: this.nextTopUpId++,
      userId: 7,
      amount: this.recharge.settings.amount,
      provider: 'stripe',
      payment: { trigger: 'auto' },
      now,
    });
    if (!topUp.ok) throw new Error('the configured amount was refused');
    const begun = beginRecharge(this.recharge, topUp.value, now);
    if (!begun.ok) throw new Error('the policy allowed a second attempt in flight');
    this.recharge = begun.value.next;
    this.started.push(topUp.value);
  }

  /** The provider's answer for the last started attempt; returns the events auto-recharge raised. */
  answer(outcome: TopUpOutcome, now: Date): string[] {
    const settled = settleTopUp(this.started[this.started.length - 1], outcome, now);
    if (!settled.ok) throw new Error('the attempt was already settled');
    if (settled.value.credit) this.balance = postTopUpCredit(this.balance, settled.value.credit).balanceAfter;
    const r = settleRecharge(this.recharge, settled.value.next);
    if (!r.ok) throw new Error(r.error);
    this.recharge = r.value.next;
    return r.value.events.map((e) => e.name);
  }

  chargeMany(count: number, price: number, now: Date): void {
    for (let i = 0; i < count; i++) this.charge(price, now);
  }
}

const DECLINE: TopUpOutcome = { kind: 'failed', reason: 'card_declined' };

describe('undoRechargeFailure', () => {
  const succeeded = { ...autoTopUp(31, 'succeeded'), createdAt: at(0) };

  it('the latest attempt turned success clears the count and error, as a success would', () => {
    const r = undoRechargeFailure(
      account({}, { consecutiveFailures: 2, lastError: 'provider_error', lastAttemptAt: at(0) }),
      succeeded,
    );
    expect(r.ok && r.value.next.state).toEqual({
      ...IDLE,
      consecutiveFailures: 0,
      lastError: null,
      lastAttemptAt: at(0),
    });
  });

  it('after a later attempt only its own failure comes off, never below zero; an auto-recharge switched off stays off', () => {
    const later = account(
      { enabled: false },
      { consecutiveFailures: 3, lastError: 'card_declined', lastAttemptAt: at(20) },
    );
    const r = undoRechargeFailure(later, succeeded);
    expect(r.ok && r.value.next).toEqual({ ...later, state: { ...later.state, consecutiveFailures: 2 } });
    const none = undoRechargeFailure(account({}, { lastAttemptAt: at(20) }), succeeded);
    expect(none.ok && none.value.next.state.consecutiveFailures).toBe(0);
  });

  it('refuses a top-up that did not succeed', () => {
    expect(undoRechargeFailure(account(), autoTopUp(31, 'failed', 'card_declined'))).toEqual({
      ok: false,
      error: 'not_a_success',
    });
  });
});

describe('auto-recharge over a sequence of charges', () => {
  it('20 concurrent charges crossing the threshold start exactly one recharge', () => {
    const acct = new Account(5.5);
    acct.chargeMany(20, 0.05, T0);
    expect(acct.balance).toBe(4.5);
    expect(acct.started.map((t) => [t.id, t.trigger, t.amount, t.status])).toEqual([[100, 'auto', 25, 'pending']]);
    expect(acct.recharge.state).toMatchObject({ inFlightTopUpId: 100, lastAttemptAt: T0 });
  });

  it('an attempt still unanswered after 10 minutes keeps later charges from starting another', () => {
    const acct = new Account(5.5);
    acct.chargeMany(20, 0.05, T0);
    acct.chargeMany(20, 0.01, at(15));
    acct.chargeMany(20, 0.01, at(60));
    expect(acct.started).toHaveLength(1);
  });

  it('a successful recharge credits once and the balance is above the threshold again', () => {
    const acct = new Account(5.5);
    acct.chargeMany(20, 0.05, T0);
    expect(acct.answer({ kind: 'succeeded' }, at(0, 5))).toEqual([]);
    expect(acct.balance).toBe(29.5);
    acct.chargeMany(20, 0.05, at(20));
    expect(acct.started).toHaveLength(1);
    expect(acct.recharge.state).toEqual({
      consecutiveFailures: 0,
      lastAttemptAt: T0,
      lastError: null,
      inFlightTopUpId: null,
    });
  });

  it('backs off 10 minutes after a decline and disables itself after the third', () => {
    const acct = new Account(5.5);
    acct.chargeMany(20, 0.05, T0);
    expect(acct.answer(DECLINE, at(0, 5))).toEqual([]);

    acct.chargeMany(20, 0.01, at(5));
    acct.chargeMany(20, 0.01, at(9, 59));
    expect(acct.started).toHaveLength(1);

    acct.chargeMany(20, 0.01, at(10));
    expect(acct.started).toHaveLength(2);
    expect(acct.answer(DECLINE, at(10, 5))).toEqual([]);
    expect(acct.recharge.state.consecutiveFailures).toBe(2);

    acct.chargeMany(20, 0.01, at(19));
    expect(acct.started).toHaveLength(2);
    acct.chargeMany(20, 0.01, at(21));
    expect(acct.started).toHaveLength(3);
    expect(acct.answer(DECLINE, at(21, 5))).toEqual(['auto_recharge.disabled']);

    expect(acct.recharge.settings.enabled).toBe(false);
    expect(acct.recharge.state).toEqual({
      consecutiveFailures: 3,
      lastAttemptAt: at(21),
      lastError: 'card_declined',
      inFlightTopUpId: null,
    });
    acct.chargeMany(20, 0.01, at(60));
    expect(acct.started).toHaveLength(3);
    expect(acct.started.map((t) => t.id)).toEqual([100, 101, 102]);
  });

  it('a success between declines starts the count again', () => {
    const acct = new Account(5.5, { ...ON, threshold: 50 });
    acct.charge(0.05, T0);
    acct.answer(DECLINE, T0);
    acct.charge(0.05, at(10));
    acct.answer(DECLINE, at(10));
    acct.charge(0.05, at(20));
    acct.answer({ kind: 'succeeded' }, at(20));
    acct.charge(0.05, at(30));
    acct.answer(DECLINE, at(30));
    acct.charge(0.05, at(40));
    acct.answer(DECLINE, at(40));
    expect(acct.recharge.settings.enabled).toBe(true);
    expect(acct.recharge.state.consecutiveFailures).toBe(2);
    expect(acct.started).toHaveLength(5);
  });
});
