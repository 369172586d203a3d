import { err, ok, Result } from '../common/result';

/**
 * A customer's permission for business-initiated chat-app calls from one sender. `expired` is never stored: a temporary grant reads as expired from its `expiresAt` on.
 */
export const CALL_PERMISSION_STATUSES = ['none', 'pending', 'granted', 'rejected', 'expired', 'revoked'] as const;
export type CallPermissionStatus = (typeof CALL_PERMISSION_STATUSES)[number];
export type StoredCallPermissionStatus = Exclude<CallPermissionStatus, 'expired'>;

/** A temporary grant lasts this long from the customer's answer (our choice). */
export const TEMPORARY_GRANT_MS = 7 * 24 * 60 * 60 * 1000;

export interface CallPermission {
  readonly senderId: number;
  readonly customerPhone: string;
  readonly status: StoredCallPermissionStatus;
  /** The customer granted without expiry. */
  readonly isPermanent: boolean;
  /** End of a temporary grant; null for any other state. */
  readonly expiresAt: Date | null;
  readonly requestedAt: Date | null;
  readonly respondedAt: Date | null;
  /** Times of the requests that still count against the ask limits (see `ask-counters.ts`). */
  readonly asks: readonly Date[];
  /** When the last chat-app call with this contact connected: asks at or before it no longer count. */
  readonly asksCountedAfter: Date | null;
}

/** The permission of a contact never asked: what a read answers when nothing is stored. */
export function noCallPermission(senderId: number, customerPhone: string): CallPermission {
  return {
    senderId,
    customerPhone,
    status: 'none',
    isPermanent: false,
    expiresAt: null,
    requestedAt: null,
    respondedAt: null,
    asks: [],
    asksCountedAfter: null,
  };
}

/** The status as read at `now`: a temporary grant is expired from the instant its `expiresAt` is reached. */
export function callPermissionStatusAt(permission: CallPermission, now: Date): CallPermissionStatus {
  if (permission.status !== 'granted' || permission.isPermanent || permission.expiresAt === null)
    return permission.status;
  return now.getTime() < permission.expiresAt.getTime() ? 'granted' : 'expired';
}

/** `can_call`: granted and not expired. */
export const canCallAt = (permission: CallPermission, now: Date): boolean =>
  callPermissionStatusAt(permission, now) === 'granted';

/** Raised when a customer grants permission; the application adds the conversation and delivers it. */
export interface CallPermissionGranted {
  readonly type: 'call_permission_granted';
  readonly senderId: number;
  readonly customerPhone: string;
  readonly isPermanent: boolean;
  readonly expiresAt: Date | null;
  readonly respondedAt: Date;
}
export type CallPermissionEvent = CallPermissionGranted;

export interface CallPermissionTransition {
  readonly next: CallPermission;
  readonly events: readonly CallPermissionEvent[];
}

/** Why a customer's answer changes nothing. */
export type CallPermissionAnswerRefusal =
  /** A decline arrived while nothing was pending or granted. */
  | 'nothing_to_decline'
  /** A revoke arrived while the permission was not granted. */
  | 'not_granted';

/** The customer accepts, from any state: a new grant, temporary for 7 days unless `permanent`. */
export function acceptCallPermission(
  permission: CallPermission,
  permanent: boolean,
  now: Date,
): CallPermissionTransition {
  const expiresAt = permanent ? null : new Date(now.getTime() + TEMPORARY_GRANT_MS);
  const next: CallPermission = {
    ...permission,
    status: 'granted',
    isPermanent: permanent,
    expiresAt,
    respondedAt: now,
  };
  const granted: CallPermissionGranted = {
    type: 'call_permission_granted',
    senderId: permission.senderId,
    customerPhone: permission.customerPhone,
    isPermanent: permanent,
    expiresAt,
    respondedAt: now,
  };
  return { next, events: [granted] };
}

/** The customer declines: a pending request is rejected, a live grant is revoked. */
export function declineCallPermission(
  permission: CallPermission,
  now: Date,
): Result<CallPermissionTransition, CallPermissionAnswerRefusal> {
  const status = callPermissionStatusAt(permission, now);
  if (status === 'pending') return ok({ next: answered(permission, 'rejected', now), events: [] });
  if (status === 'granted') return ok({ next: answered(permission, 'revoked', now), events: [] });
  return err('nothing_to_decline');
}

/** The customer withdraws a live grant; an expired one is no longer granted. */
export function revokeCallPermission(
  permission: CallPermission,
  now: Date,
): Result<CallPermissionTransition, CallPermissionAnswerRefusal> {
  if (callPermissionStatusAt(permission, now) !== 'granted') return err('not_granted');
  return ok({ next: answered(permission, 'revoked', now), events: [] });
}

function answered(permission: CallPermission, status: 'rejected' | 'revoked', now: Date): CallPermission {
  return { ...permission, status, isPermanent: false, expiresAt: null, respondedAt: now };
}
