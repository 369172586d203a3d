import { err, ok, Result } from '../common/result';

/**
 * Chat-app message delivery statuses. Provider callbacks arrive late and out of
 * order, so an update never moves a message backwards: it is always kept in the history, and
 * changes `status` only when it moves forward.
 */
export const CHATAPP_MESSAGE_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'undelivered',
  'received',
] as const;
export type ChatappMessageStatus = (typeof CHATAPP_MESSAGE_STATUSES)[number];

/** What a provider may report about an outbound message. */
export type MessageDeliveryUpdateStatus = Exclude<ChatappMessageStatus, 'received'>;

export interface StatusHistoryEntry {
  readonly status: MessageDeliveryUpdateStatus;
  readonly at: Date;
}

export interface MessageDeliveryUpdate {
  readonly status: MessageDeliveryUpdateStatus;
  readonly at: Date;
  /** The provider's error, for `failed`/`undelivered`. */
  readonly errorCode?: string | null;
  readonly errorMessage?: string | null;
}

export interface MessageDeliveryState {
  readonly status: ChatappMessageStatus;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  readonly statusHistory: readonly StatusHistoryEntry[];
}

/** Raised when `status` changes: a `message_status` event when the sender has a `status_webhook_url`. */
export type MessageDeliveryEvent = {
  readonly type: 'message_status_changed';
  readonly status: MessageDeliveryUpdateStatus;
  readonly at: Date;
};

/** Inbound messages are `received` and have no delivery to track. */
export type MessageDeliveryRefusal = { readonly code: 'inbound_message' };

type FailedStatus = Extract<ChatappMessageStatus, 'failed' | 'undelivered'>;
const RANK: Readonly<Record<Exclude<MessageDeliveryUpdateStatus, FailedStatus>, number>> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  read: 3,
};

/** `failed` and `undelivered` are terminal. */
export const isFailedMessageStatus = (status: ChatappMessageStatus): status is FailedStatus =>
  status === 'failed' || status === 'undelivered';

/** Whether `update` replaces `current` as the message's status. */
export function messageStatusApplies(
  current: MessageDeliveryUpdateStatus,
  update: MessageDeliveryUpdateStatus,
): boolean {
  if (isFailedMessageStatus(current)) return false;
  if (isFailedMessageStatus(update)) return current !== 'read';
  return RANK[update] > RANK[current];
}

export function applyMessageDeliveryUpdate(
  state: MessageDeliveryState,
  update: MessageDeliveryUpdate,
): Result<{ next: MessageDeliveryState; events: readonly MessageDeliveryEvent[] }, MessageDeliveryRefusal> {
  if (state.status === 'received') return err({ code: 'inbound_message' });
  const statusHistory = [...state.statusHistory, { status: update.status, at: update.at }];
  if (!messageStatusApplies(state.status, update.status)) return ok({ next: { ...state, statusHistory }, events: [] });
  const failed = isFailedMessageStatus(update.status);
  const next: MessageDeliveryState = {
    status: update.status,
    errorCode: failed ? (update.errorCode ?? null) : state.errorCode,
    errorMessage: failed ? (update.errorMessage ?? null) : state.errorMessage,
    statusHistory,
  };
  return ok({ next, events: [{ type: 'message_status_changed', status: update.status, at: update.at }] });
}
