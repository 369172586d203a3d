import { NO_CONVERSATION_TEXT, SESSION_EXPIRED_TEXT, sessionOpenText, sessionStatus } from './session-status';

const t = (iso: string) => new Date(iso);

describe('session status object', () => {
  it('open: the contract example, 23 hr 45 min remaining', () => {
    const window = { lastCustomerMessageAt: t('2026-03-01T10:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T10:15:00.000Z'))).toEqual({
      kind: 'open', isOpen: true, canSendFreeform: true, requiresTemplate: false,
      message: 'Session open (23 hr 45 min remaining). Unlimited free-form messages allowed.',
      minutesRemaining: 1425, expiresAt: t('2026-03-02T10:00:00.000Z'),
    });
  });

  it('open: minutes are floored (59.99 s left is 0 min)', () => {
    const window = { lastCustomerMessageAt: null, lastTemplateSentAt: t('2026-03-01T10:00:00.000Z') };
    const status = sessionStatus(window, t('2026-03-02T09:59:00.010Z'));
    expect(status).toMatchObject({ isOpen: true, minutesRemaining: 0, message: 'Session open (0 hr 0 min remaining). Unlimited free-form messages allowed.' });
  });

  it('expired: the contract text and expired_at', () => {
    const window = { lastCustomerMessageAt: t('2026-02-28T09:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T10:00:00.000Z'))).toEqual({
      kind: 'expired', isOpen: false, canSendFreeform: false, requiresTemplate: true,
      message: 'Session expired. Send a template message to reopen the conversation.', expiredAt: t('2026-03-01T09:00:00.000Z'),
    });
  });

  it('expired at the exact expiry instant', () => {
    const window = { lastCustomerMessageAt: t('2026-02-28T09:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T09:00:00.000Z')).isOpen).toBe(false);
  });

  it('no conversation: the contract text and expired_at null', () => {
    expect(sessionStatus(null, t('2026-03-01T10:00:00.000Z'))).toEqual({
      kind: 'no_conversation', isOpen: false, canSendFreeform: false, requiresTemplate: true,
      message: 'No conversation exists with this recipient. Send a template message first.', expiredAt: null,
    });
  });

  it('a conversation whose window never opened reads as expired with expired_at null', () => {
    expect(sessionStatus({ lastCustomerMessageAt: null, lastTemplateSentAt: null }, t('2026-03-01T10:00:00.000Z')))
      .toMatchObject({ kind: 'expired', message: SESSION_EXPIRED_TEXT, expiredAt: null });
  });

  it.each([
    [1440, 'Session open (24 hr 0 min remaining). Unlimited free-form messages allowed.'],
    [61, 'Session open (1 hr 1 min remaining). Unlimited free-form messages allowed.'],
    [59, 'Session open (0 hr 59 min remaining). Unlimited free-form messages allowed.'],
  ])('open text for %i minutes', (minutes, text) => {
    expect(sessionOpenText(minutes)).toBe(text);
  });

  it('texts are the contract literals', () => {
    expect(NO_CONVERSATION_TEXT).toBe('No conversation exists with this recipient. Send a template message first.');
  });
});
