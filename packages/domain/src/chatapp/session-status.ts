import { ChatWindow, windowExpiresAt } from './window';

/**
 * The session-status object. Its `message` texts are response data fixed by
 * the contract, so they belong to the model here rather than to the HTTP layer.
 */
export type SessionStatus =
  | {
      readonly kind: 'open';
      readonly isOpen: true;
      readonly canSendFreeform: true;
      readonly requiresTemplate: false;
      readonly message: string;
      readonly minutesRemaining: number;
      readonly expiresAt: Date;
    }
  | {
      readonly kind: 'expired' | 'no_conversation';
      readonly isOpen: false;
      readonly canSendFreeform: false;
      readonly requiresTemplate: true;
      readonly message: string;
      readonly expiredAt: Date | null;
    };

export const SESSION_EXPIRED_TEXT = 'Session expired. Send a template message to reopen the conversation.';
export const NO_CONVERSATION_TEXT = 'No conversation exists with this recipient. Send a template message first.';

export const sessionOpenText = (minutesRemaining: number): string =>
  `Session open (${Math.floor(minutesRemaining / 60)} hr ${minutesRemaining % 60} min remaining). Unlimited free-form messages allowed.`;

/**
 * `window` is null when no conversation exists with the recipient. A conversation whose window was
 * never opened reads as expired with `expiredAt: null`.
 */
export function sessionStatus(window: ChatWindow | null, now: Date): SessionStatus {
  const closed = { isOpen: false, canSendFreeform: false, requiresTemplate: true } as const;
  if (window === null) return { kind: 'no_conversation', ...closed, message: NO_CONVERSATION_TEXT, expiredAt: null };
  const expiresAt = windowExpiresAt(window);
  if (expiresAt === null || now.getTime() >= expiresAt.getTime()) {
    return { kind: 'expired', ...closed, message: SESSION_EXPIRED_TEXT, expiredAt: expiresAt };
  }
  const minutesRemaining = Math.floor((expiresAt.getTime() - now.getTime()) / 60_000);
  return {
    kind: 'open', isOpen: true, canSendFreeform: true, requiresTemplate: false,
    message: sessionOpenText(minutesRemaining), minutesRemaining, expiresAt,
  };
}
