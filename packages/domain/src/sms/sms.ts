import { E164_PATTERN } from '../assistants/built-in-tools';
import { canAfford } from '../billing/ledger';
import { fromUnits, toUnits } from '../billing/money';
import { err, ok, Result } from '../common/result';
import { smsSegments, SmsEncoding } from './segments';

/** The SMS price per billed segment (configuration; this is the default). */
export interface SmsPrices {
  readonly segment: number;
}

export const DEFAULT_SMS_PRICES: SmsPrices = { segment: 0.05 };

/** Famulor's limit on `body`, in characters (code points). */
export const SMS_BODY_MAX = 300;

/**
 * What an SMS is known as after it left: `sent` once the provider took it, then what the carrier
 * reported. `delivered`, `undelivered` and `failed` are final.
 */
export type SmsStatus = 'sent' | 'delivered' | 'undelivered' | 'failed';

const FINAL: ReadonlySet<SmsStatus> = new Set(['delivered', 'undelivered', 'failed']);

/**
 * A provider's status word (Twilio's message statuses) as ours; null for the ones that say
 * nothing about an outbound message's fate (`receiving`, `scheduled`, …).
 */
export function smsStatusOf(providerStatus: string): SmsStatus | null {
  switch (providerStatus.toLowerCase()) {
    case 'accepted':
    case 'queued':
    case 'sending':
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/**
 * The status after a report: a final status never changes, and a late `sent` never undoes one
 * (status callbacks may arrive out of order). Null: nothing changes.
 */
export function nextSmsStatus(current: SmsStatus, reported: SmsStatus): SmsStatus | null {
  if (FINAL.has(current) || reported === current || reported === 'sent') return null;
  return reported;
}

/**
 * A recipient in international format as people write it: spaces, dashes, dots and parentheses
 * are dropped and a leading `00` is read as `+`; what is left must be E.164. Null otherwise.
 */
export function normalizeRecipient(raw: string): string | null {
  let n = raw.trim().replace(/[\s\-.()/]/g, '');
  if (n.startsWith('00')) n = `+${n.slice(2)}`;
  return E164_PATTERN.test(n) ? n : null;
}

/** The sending number as the decision needs it; null when the account owns no such number. */
export interface SmsSendingNumber {
  readonly phoneNumber: string;
  readonly smsCapable: boolean;
}

export type SmsRefusal =
  | { readonly code: 'from_not_found' }
  | { readonly code: 'not_sms_capable' }
  | { readonly code: 'invalid_phone' }
  | { readonly code: 'insufficient_balance'; readonly balance: number; readonly required: number };

export interface SmsSendInput {
  readonly from: SmsSendingNumber | null;
  readonly to: string;
  readonly body: string;
  /** What the account may still spend: its balance less what open sends hold. */
  readonly balance: number;
  readonly prices: SmsPrices;
}

export interface SmsCharge {
  readonly from: string;
  readonly to: string;
  readonly encoding: SmsEncoding;
  readonly segments: number;
  readonly cost: number;
}

/** The checks in order: the recipient's format, the number, its capability, then the balance. */
export function decideSmsSend(input: SmsSendInput): Result<SmsCharge, SmsRefusal> {
  const to = normalizeRecipient(input.to);
  if (to === null) return err({ code: 'invalid_phone' });
  if (input.from === null) return err({ code: 'from_not_found' });
  if (!input.from.smsCapable) return err({ code: 'not_sms_capable' });
  const { encoding, segments } = smsSegments(input.body);
  const cost = smsCost(segments, input.prices);
  if (!canAfford(input.balance, cost))
    return err({ code: 'insufficient_balance', balance: input.balance, required: cost });
  return ok({ from: input.from.phoneNumber, to, encoding, segments, cost });
}

/** Segments times the segment price, in exact ten-thousandths. */
export function smsCost(segments: number, prices: SmsPrices): number {
  return fromUnits(segments * toUnits(prices.segment));
}
