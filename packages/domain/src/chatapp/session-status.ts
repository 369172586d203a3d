import { ChatWindow, windowExpiresAt } from './window';

/** Whether free-form messages may go to the recipient now; the HTTP layer words it. */
export type SessionStatus =
  | {
      readonly kind: 'open';
      readonly isOpen: true;
      readonly canSendFreeform: true;
      readonly requiresTemplate: false;
      readonly minutesRemaining: number;
      readonly expiresAt: Date;
    }
  | {
      readonly kind: 'expired' | 'no_conversation';
      readonly isOpen: false;
      readonly canSendFreeform: false;
      readonly requiresTemplate: true;
      readonly expiredAt: Date | null;
    };

/**
 * `window` is null when no conversation exists with the recipient. A conversation whose window was
 * never opened reads as expired with `expiredAt: null`.
 */
export function sessionStatus(window: ChatWindow | null, now: Date): SessionStatus {
  const closed = { isOpen: false, canSendFreeform: false, requiresTemplate: true } as const;
  if (window === null) return { kind: 'no_conversation', ...closed, expiredAt: null };
  const expiresAt = windowExpiresAt(window);
  if (expiresAt === null || now.getTime() >= expiresAt.getTime()) {
    return { kind: 'expired', ...closed, expiredAt: expiresAt };
  }
  const minutesRemaining = Math.floor((expiresAt.getTime() - now.getTime()) / 60_000);
  return {
    kind: 'open',
    isOpen: true,
    canSendFreeform: true,
    requiresTemplate: false,
    minutesRemaining,
    expiresAt,
  };
}
