import { sessionStatus } from './session-status';

const t = (iso: string) => new Date(iso);

describe('session status object', () => {
  it('open: the contract example, 23 hr 45 min remaining', () => {
    const window = { lastCustomerMessageAt: t('2026-03-01T10:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T10:15:00.000Z'))).toEqual({
      kind: 'open',
      isOpen: true,
      canSendFreeform: true,
      requiresTemplate: false,
      minutesRemaining: 1425,
      expiresAt: t('2026-03-02T10:00:00.000Z'),
    });
  });

  it('open: minutes are floored (59.99 s left is 0 min)', () => {
    const window = { lastCustomerMessageAt: null, lastTemplateSentAt: t('2026-03-01T10:00:00.000Z') };
    const status = sessionStatus(window, t('2026-03-02T09:59:00.010Z'));
    expect(status).toMatchObject({ isOpen: true, minutesRemaining: 0 });
  });

  it('expired: expired_at', () => {
    const window = { lastCustomerMessageAt: t('2026-02-28T09:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T10:00:00.000Z'))).toEqual({
      kind: 'expired',
      isOpen: false,
      canSendFreeform: false,
      requiresTemplate: true,
      expiredAt: t('2026-03-01T09:00:00.000Z'),
    });
  });

  it('expired at the exact expiry instant', () => {
    const window = { lastCustomerMessageAt: t('2026-02-28T09:00:00.000Z'), lastTemplateSentAt: null };
    expect(sessionStatus(window, t('2026-03-01T09:00:00.000Z')).isOpen).toBe(false);
  });

  it('no conversation: expired_at null', () => {
    expect(sessionStatus(null, t('2026-03-01T10:00:00.000Z'))).toEqual({
      kind: 'no_conversation',
      isOpen: false,
      canSendFreeform: false,
      requiresTemplate: true,
      expiredAt: null,
    });
  });

  it('a conversation whose window never opened reads as expired with expired_at null', () => {
    expect(
      sessionStatus({ lastCustomerMessageAt: null, lastTemplateSentAt: null }, t('2026-03-01T10:00:00.000Z')),
    ).toMatchObject({ kind: 'expired', expiredAt: null });
  });
});
