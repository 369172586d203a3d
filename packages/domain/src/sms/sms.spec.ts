import { decideSmsSend, nextSmsStatus, normalizeRecipient, smsCost, smsStatusOf } from './sms';

const prices = { segment: 0.05 };
const number = { phoneNumber: '+4930123456', smsCapable: true };

describe('decideSmsSend', () => {
  it('prices every segment and normalises the recipient', () => {
    expect(decideSmsSend({ from: number, to: '+49 151 2345-6789', body: 'a'.repeat(161), balance: 1, prices })).toEqual(
      {
        ok: true,
        value: { from: '+4930123456', to: '+4915123456789', encoding: 'gsm7', segments: 2, cost: 0.1 },
      },
    );
  });

  it('refuses in order: recipient format, unknown number, capability, balance', () => {
    const refusal = (input: Partial<Parameters<typeof decideSmsSend>[0]>) => {
      const r = decideSmsSend({ from: number, to: '+4915123456789', body: 'hi', balance: 1, prices, ...input });
      return r.ok ? null : r.error.code;
    };
    expect(refusal({ to: '12345', from: null })).toBe('invalid_phone');
    expect(refusal({ from: null })).toBe('from_not_found');
    expect(refusal({ from: { ...number, smsCapable: false }, balance: 0 })).toBe('not_sms_capable');
    expect(refusal({ balance: 0.0499 })).toBe('insufficient_balance');
    expect(refusal({ balance: 0.05 })).toBeNull();
  });

  it('says how much was missing', () => {
    expect(decideSmsSend({ from: number, to: '+4915123456789', body: 'ç'.repeat(71), balance: 0.05, prices })).toEqual({
      ok: false,
      error: { code: 'insufficient_balance', balance: 0.05, required: 0.1 },
    });
  });
});

describe('normalizeRecipient', () => {
  it.each([
    ['+4915123456789', '+4915123456789'],
    [' +1 (415) 555-0134 ', '+14155550134'],
    ['004915123456789', '+4915123456789'],
    ['+44.20.7946.0123', '+442079460123'],
    ['015123456789', null],
    ['+0123456789', null],
    ['+49151abc', null],
    ['+1234', null],
  ])('%j → %j', (raw, normal) => expect(normalizeRecipient(raw)).toBe(normal));
});

it('costs segments times the price in exact ten-thousandths', () => {
  expect(smsCost(3, { segment: 0.0075 })).toBe(0.0225);
  expect(smsCost(3, { segment: 0.1 })).toBe(0.3);
});

describe('statuses', () => {
  it.each([
    ['queued', 'sent'],
    ['accepted', 'sent'],
    ['sending', 'sent'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['receiving', null],
  ])('Twilio %s → %s', (twilio, ours) => expect(smsStatusOf(twilio)).toBe(ours));

  it('moves forward only: a final status stays, a late sent changes nothing', () => {
    expect(nextSmsStatus('sent', 'delivered')).toBe('delivered');
    expect(nextSmsStatus('sent', 'undelivered')).toBe('undelivered');
    expect(nextSmsStatus('delivered', 'failed')).toBeNull();
    expect(nextSmsStatus('failed', 'delivered')).toBeNull();
    expect(nextSmsStatus('sent', 'sent')).toBeNull();
  });
});
