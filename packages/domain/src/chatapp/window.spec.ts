import {
  canSendFreeform,
  ChatWindow,
  CLOSED_WINDOW,
  expireWindow,
  isWindowOpen,
  openOnCustomerMessage,
  openOnTemplateSent,
  windowExpiresAt,
  windowOpenedBy,
} from './window';

const t = (iso: string) => new Date(iso);
const H = 60 * 60 * 1_000;
const at = (base: Date, hours: number) => new Date(base.getTime() + hours * H);
const T0 = t('2026-03-01T10:00:00.000Z');
const openedByCustomer: ChatWindow = { lastCustomerMessageAt: T0, lastTemplateSentAt: null };

describe('24-hour window', () => {
  it('closed + customer message → open, 24-hour timer starts', () => {
    const { next, events } = openOnCustomerMessage(CLOSED_WINDOW, T0);
    expect(isWindowOpen(next, T0)).toBe(true);
    expect(windowExpiresAt(next)).toEqual(t('2026-03-02T10:00:00.000Z'));
    expect(events).toEqual([{ type: 'window_opened', openedBy: 'customer', expiresAt: t('2026-03-02T10:00:00.000Z') }]);
  });

  it('open + another customer message → open, timer restarts at 24 h', () => {
    const later = at(T0, 5);
    const { next, events } = openOnCustomerMessage(openedByCustomer, later);
    expect(windowExpiresAt(next)).toEqual(at(T0, 29));
    expect(events).toEqual([{ type: 'window_extended', openedBy: 'customer', expiresAt: at(T0, 29) }]);
  });

  it('closed + template sent → open, freeform allowed for 24 h', () => {
    const { next, events } = openOnTemplateSent(CLOSED_WINDOW, T0);
    expect(canSendFreeform(next, T0)).toBe(true);
    expect(canSendFreeform(next, at(T0, 24))).toBe(false);
    expect(canSendFreeform(next, new Date(at(T0, 24).getTime() - 1))).toBe(true);
    expect(events).toEqual([{ type: 'window_opened', openedBy: 'template', expiresAt: at(T0, 24) }]);
  });

  it('closed (expired) + customer message → open again', () => {
    const { next, events } = openOnCustomerMessage(openedByCustomer, at(T0, 30));
    expect(windowExpiresAt(next)).toEqual(at(T0, 54));
    expect(events[0].type).toBe('window_opened');
  });

  it('open + template sent → open, timer restarts at 24 h when that is later', () => {
    const { next, events } = openOnTemplateSent(openedByCustomer, at(T0, 2));
    expect(windowExpiresAt(next)).toEqual(at(T0, 26));
    expect(windowOpenedBy(next)).toBe('template');
    expect(events).toEqual([{ type: 'window_extended', openedBy: 'template', expiresAt: at(T0, 26) }]);
  });

  it('open + template sent with an earlier timestamp (late callback) → expiry unchanged, no event', () => {
    const window: ChatWindow = { lastCustomerMessageAt: at(T0, 3), lastTemplateSentAt: null };
    const { next, events } = openOnTemplateSent(window, at(T0, 1));
    expect(windowExpiresAt(next)).toEqual(at(T0, 27));
    expect(windowOpenedBy(next)).toBe('customer');
    expect(events).toEqual([]);
  });

  it('a late customer message never moves the timestamp backwards', () => {
    const { next } = openOnCustomerMessage(openedByCustomer, at(T0, -2));
    expect(next.lastCustomerMessageAt).toEqual(T0);
  });

  it('open + 24 h pass without a new customer message or template → closed, freeform refused', () => {
    expect(isWindowOpen(openedByCustomer, at(T0, 23.99))).toBe(true);
    expect(isWindowOpen(openedByCustomer, at(T0, 24))).toBe(false);
    expect(canSendFreeform(openedByCustomer, at(T0, 24))).toBe(false);
  });

  it('never opened: closed, no expiry, no opener', () => {
    expect(windowExpiresAt(CLOSED_WINDOW)).toBeNull();
    expect(windowOpenedBy(CLOSED_WINDOW)).toBeNull();
    expect(canSendFreeform(CLOSED_WINDOW, T0)).toBe(false);
  });

  it('window_opened_by names the timestamp that gives the expiry (a tie is the customer)', () => {
    expect(windowOpenedBy({ lastCustomerMessageAt: T0, lastTemplateSentAt: at(T0, 1) })).toBe('template');
    expect(windowOpenedBy({ lastCustomerMessageAt: at(T0, 1), lastTemplateSentAt: T0 })).toBe('customer');
    expect(windowOpenedBy({ lastCustomerMessageAt: T0, lastTemplateSentAt: T0 })).toBe('customer');
  });
});

describe('expireWindow (sandbox expire-window)', () => {
  const now = new Date('2026-03-02T12:00:00.000Z');
  it('moves both openings back so the window closed one minute ago', () => {
    const moved = expireWindow(
      {
        lastCustomerMessageAt: new Date('2026-03-02T11:00:00.000Z'),
        lastTemplateSentAt: new Date('2026-03-02T11:30:00.000Z'),
      },
      now,
    );
    expect(isWindowOpen(moved, now)).toBe(false);
    expect(windowExpiresAt(moved)).toEqual(new Date('2026-03-02T11:59:00.000Z'));
  });
  it('gives a never-opened window a customer opening', () => {
    expect(windowExpiresAt(expireWindow(CLOSED_WINDOW, now))).toEqual(new Date('2026-03-02T11:59:00.000Z'));
  });
});
