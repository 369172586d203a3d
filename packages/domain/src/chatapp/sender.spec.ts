import { checkSenderCanSend, formatMessagingLimit, senderCountryCode } from './sender';

describe('sender status', () => {
  it('only online senders send; the refusal names the status', () => {
    expect(checkSenderCanSend('online').ok).toBe(true);
    expect(checkSenderCanSend('offline')).toEqual({
      ok: false,
      error: { code: 'sender_offline', senderStatus: 'offline' },
    });
  });

  it.each([
    [1000, '1,000 / 24hr'],
    [250, '250 / 24hr'],
    [100000, '100,000 / 24hr'],
    [1000000, '1,000,000 / 24hr'],
    [null, 'Unlimited'],
  ])('messaging limit %p reads %s', (limit, text) => {
    expect(formatMessagingLimit(limit)).toBe(text);
  });
});

describe('senderCountryCode', () => {
  it('is the region of the number', () => {
    expect(senderCountryCode('+4915112345678')).toBe('DE');
    expect(senderCountryCode('+14155551234')).toBe('US');
  });
});
