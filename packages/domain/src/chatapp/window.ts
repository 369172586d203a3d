/**
 * The 24-hour messaging window per (sender, customer). Only the two timestamps are
 * stored; whether the window is open is always computed from them and `now`, so it is never stale.
 */
export const WINDOW_HOURS = 24;
const WINDOW_MS = WINDOW_HOURS * 60 * 60 * 1_000;

export interface ChatWindow {
  readonly lastCustomerMessageAt: Date | null;
  /** Every successful template send, the call-permission request template included. */
  readonly lastTemplateSentAt: Date | null;
}

export const CLOSED_WINDOW: ChatWindow = { lastCustomerMessageAt: null, lastTemplateSentAt: null };

/** Which timestamp gives the current expiry (`window_opened_by`). */
export type WindowOpener = 'customer' | 'template';

export type WindowEvent =
  | { readonly type: 'window_opened'; readonly openedBy: WindowOpener; readonly expiresAt: Date }
  | { readonly type: 'window_extended'; readonly openedBy: WindowOpener; readonly expiresAt: Date };

export interface WindowChange {
  readonly next: ChatWindow;
  readonly events: readonly WindowEvent[];
}

/** `max(last_customer_message_at, last_template_sent_at) + 24 h`; null when neither ever happened. */
export function windowExpiresAt(window: ChatWindow): Date | null {
  const latest = latestOpening(window);
  return latest === null ? null : new Date(latest.at.getTime() + WINDOW_MS);
}

/** Null when the window was never opened. A tie is credited to the customer. */
export function windowOpenedBy(window: ChatWindow): WindowOpener | null {
  return latestOpening(window)?.by ?? null;
}

/** Open while `now < window_expires_at`. */
export function isWindowOpen(window: ChatWindow, now: Date): boolean {
  const expiresAt = windowExpiresAt(window);
  return expiresAt !== null && now.getTime() < expiresAt.getTime();
}

/** Freeform messages (API or AI) may be sent only while the window is open. */
export const canSendFreeform = (window: ChatWindow, now: Date): boolean => isWindowOpen(window, now);

/** A customer message opens the window or restarts its 24 hours. */
export function openOnCustomerMessage(window: ChatWindow, at: Date): WindowChange {
  return moveOpening(window, { ...window, lastCustomerMessageAt: laterOf(window.lastCustomerMessageAt, at) }, at);
}

/** A successful template send opens the window or extends it when that is later. */
export function openOnTemplateSent(window: ChatWindow, at: Date): WindowChange {
  return moveOpening(window, { ...window, lastTemplateSentAt: laterOf(window.lastTemplateSentAt, at) }, at);
}

function moveOpening(before: ChatWindow, next: ChatWindow, at: Date): WindowChange {
  const expiresAt = windowExpiresAt(next) as Date;
  const openedBy = windowOpenedBy(next) as WindowOpener;
  if (!isWindowOpen(before, at)) return { next, events: [{ type: 'window_opened', openedBy, expiresAt }] };
  const extended = expiresAt.getTime() > (windowExpiresAt(before) as Date).getTime();
  return { next, events: extended ? [{ type: 'window_extended', openedBy, expiresAt }] : [] };
}

/** A late (out-of-order) message never moves a "last …" timestamp backwards. */
export function laterOf(stored: Date | null, at: Date): Date {
  return stored !== null && stored.getTime() >= at.getTime() ? stored : at;
}

function latestOpening(window: ChatWindow): { readonly at: Date; readonly by: WindowOpener } | null {
  const { lastCustomerMessageAt: customer, lastTemplateSentAt: template } = window;
  if (customer === null && template === null) return null;
  if (template === null || (customer !== null && customer.getTime() >= template.getTime()))
    return { at: customer as Date, by: 'customer' };
  return { at: template, by: 'template' };
}

/**
 * The sandbox's `expire-window`: both openings moved back so the window closed one minute
 * before `now`. A window never opened gets a customer opening, so the expiry it reports is real.
 */
export function expireWindow(window: ChatWindow, now: Date): ChatWindow {
  const closedAt = new Date(now.getTime() - WINDOW_MS - 60_000);
  const neverOpened = window.lastCustomerMessageAt === null && window.lastTemplateSentAt === null;
  return {
    lastCustomerMessageAt: neverOpened || window.lastCustomerMessageAt !== null ? closedAt : null,
    lastTemplateSentAt: window.lastTemplateSentAt !== null ? closedAt : null,
  };
}
