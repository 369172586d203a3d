import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { err, ok, Result } from '../common/result';

export const SENDER_STATUSES = ['online', 'offline'] as const;
export type SenderStatus = (typeof SENDER_STATUSES)[number];

export const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED'] as const;
export type QualityRating = (typeof QUALITY_RATINGS)[number];

/** A business number on the chat app. */
export interface Sender {
  readonly id: number;
  readonly userId: number;
  readonly phoneNumber: string;
  readonly displayName: string;
  readonly status: SenderStatus;
  readonly qualityRating: QualityRating;
  /** Messages per 24 hours; null = unlimited. */
  readonly messagingLimit: number | null;
  readonly countryCode: string;
  readonly assistantId: number | null;
  readonly callingEnabled: boolean;
  readonly statusWebhookUrl: string | null;
  readonly provider: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The refusal names the current status: the error text quotes it. */
export type SenderOffline = { readonly code: 'sender_offline'; readonly senderStatus: SenderStatus };

/** Only `online` senders send. */
export function checkSenderCanSend(status: SenderStatus): Result<void, SenderOffline> {
  return status === 'online' ? ok(undefined) : err({ code: 'sender_offline', senderStatus: status });
}

/** `messaging_limit_formatted` of the sender object: `"1,000 / 24hr"`, or `"Unlimited"` for null. */
export function formatMessagingLimit(limit: number | null): string {
  if (limit === null) return 'Unlimited';
  return `${String(limit).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} / 24hr`;
}

/**
 * `country_code` of a sender: the region of its number's numbering plan, or the first region
 * sharing its calling code; empty when the number belongs to no region (non-geographic ranges).
 */
export function senderCountryCode(phoneNumber: string): string {
  const parsed = parsePhoneNumberFromString(phoneNumber);
  if (!parsed) return '';
  return parsed.country ?? parsed.getPossibleCountries()[0] ?? '';
}
