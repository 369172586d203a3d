import type { ChatappInboundItem } from '@voiceplane/application';
import { MEDIA_TYPES, MediaType, MessageDeliveryUpdateStatus } from '@voiceplane/domain';
import { messagingLimitOfTier } from './number-reach';
import { templateStatusOf } from './template-status';

/**
 * Meta's webhook notification (`object: whatsapp_business_account`) in voiceplane's ingress items
 *. Each `entry[].changes[]` carries one `field`; anything this product does not act
 * on (reactions, locations, quality scores, …) yields no item. The payload is read defensively:
 * it is signed, but its shape is Meta's and changes between Graph versions.
 *
 * Every field is checked here, where the item is read, against what the product can store: an item
 * whose identifier (message, call, template or account id, customer number) holds a NUL or a lone
 * surrogate, or is longer than any real one, is refused alone and the rest of the notification is
 * kept; free text (message text, captions, names, error details) keeps what it can — unsafe
 * characters replaced by U+FFFD, cut to the length stored — so no item is taken in that would
 * fail on every attempt to handle it.
 *
 * `providerItemId` is what the inbox deduplicates on: Meta's own id where it has one (`wamid.…`,
 * `wacid.…`), joined with the state it reports where one id goes through several states (a
 * message's statuses, a call's events), and the notification time for account-level events.
 */
export function whatsappWebhookItems(payload: unknown): ChatappInboundItem[] {
  const root = record(payload);
  if (root === null || root.object !== 'whatsapp_business_account') return [];
  const items: ChatappInboundItem[] = [];
  for (const entry of list(root.entry)) {
    const e = record(entry);
    if (e === null) continue;
    const accountId = ident(e.id);
    const time = text(e.time);
    const stamp = time !== null && /^\d{1,12}$/.test(time) ? time : '0';
    for (const change of list(e.changes)) {
      const c = record(change);
      const value = record(c?.value);
      if (c === null || value === null) continue;
      switch (c.field) {
        case 'messages':
          items.push(...messageItems(value), ...statusItems(value));
          break;
        case 'calls':
          items.push(...callItems(value));
          break;
        case 'message_template_status_update':
          items.push(...templateItems(value, stamp));
          break;
        case 'phone_number_quality_update':
          items.push(...numberItems(value, stamp));
          break;
        case 'account_update':
          if (accountId !== null) items.push(...accountItems(value, accountId, stamp));
          break;
        default:
          break;
      }
    }
  }
  return items;
}

type Json = Record<string, unknown>;

const record = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
/** Meta's timestamps are Unix seconds, as strings or numbers; one beyond year 9999 is no timestamp. */
const LAST_SECOND = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;
const secondsAt = (v: unknown): Date | null => {
  const s = text(v);
  return s !== null && /^\d{1,12}$/.test(s) && Number(s) <= LAST_SECOND ? new Date(Number(s) * 1000) : null;
};

/** Text PostgreSQL cannot hold (NUL) or UTF-8 cannot encode (half a surrogate pair). */
const UNSAFE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const isSafe = (s: string): boolean => s.search(UNSAFE) === -1;

/** Meta's ids are tens of characters; this is more than any, and keeps a composed item id within the inbox's 512. */
const MAX_ID = 128;
/** Lengths the product stores: a customer's name, an error code and message, a message text or caption. */
const MAX_NAME = 255;
const MAX_ERROR_CODE = 64;
const MAX_ERROR_MESSAGE = 1024;
const MAX_TEXT = 4096;

/** An identifier, or null (the item is refused) when it holds unsafe text or is longer than any real one. */
const ident = (v: unknown, max = MAX_ID): string | null => {
  const s = text(v);
  return s !== null && s.length <= max && isSafe(s) ? s : null;
};
/** Free text as stored: cut to `max`, then unsafe characters (a pair split by the cut too) replaced. */
const prose = (v: unknown, max: number): string | null => {
  const s = text(v);
  return s === null ? null : s.slice(0, max).replace(UNSAFE, '\uFFFD');
};

const E164 = /^\+[1-9]\d{6,14}$/;
/** Meta sends numbers as digits without `+`; voiceplane keeps E.164, and anything else is no number. */
const e164 = (v: unknown): string | null => {
  const s = text(v);
  if (s === null || s.length > 16) return null;
  const number = `+${s.replace(/^\+/, '')}`;
  return E164.test(number) ? number : null;
};
const senderRefOf = (value: Json): string | null => ident(record(value.metadata)?.phone_number_id);

function messageItems(value: Json): ChatappInboundItem[] {
  const senderRef = senderRefOf(value);
  if (senderRef === null) return [];
  const names = new Map<string, string>();
  for (const contact of list(value.contacts)) {
    const c = record(contact);
    const waId = text(c?.wa_id);
    const name = prose(record(c?.profile)?.name, MAX_NAME);
    if (waId !== null && name !== null) names.set(waId, name);
  }
  return list(value.messages).flatMap((raw): ChatappInboundItem[] => {
    const m = record(raw);
    const id = ident(m?.id);
    const from = text(m?.from);
    const customerPhone = e164(from);
    const at = secondsAt(m?.timestamp);
    if (m === null || id === null || from === null || customerPhone === null || at === null) return [];
    const type = text(m.type);
    const interactive = record(m.interactive);
    if (type === 'interactive' && interactive?.type === 'call_permission_reply') {
      const reply = record(interactive.call_permission_reply);
      const response = reply?.response;
      if (response !== 'accept' && response !== 'reject') return [];
      return [
        {
          kind: 'call_permission_reply',
          providerItemId: id,
          providerSenderRef: senderRef,
          customerPhone,
          response,
          isPermanent: reply?.is_permanent === true,
          expiresAt: secondsAt(reply?.expiration_timestamp),
          at,
        },
      ];
    }
    const content = messageContent(type, m, interactive);
    if (content === null) return [];
    return [
      {
        kind: 'customer_message',
        providerItemId: id,
        providerSenderRef: senderRef,
        customerPhone,
        customerName: names.get(from) ?? null,
        text: content.text,
        media: content.media,
        receivedAt: at,
      },
    ];
  });
}

type Content = {
  text: string | null;
  media: { mediaType: MediaType; providerMediaId: string; caption: string | null } | null;
};

/** What a customer wrote or sent; null for what the product does not take in (reactions, locations, stickers, …). */
function messageContent(type: string | null, m: Json, interactive: Json | null): Content | null {
  if (type === 'text') {
    const body = prose(record(m.text)?.body, MAX_TEXT);
    return body === null ? null : { text: body, media: null };
  }
  if (type !== null && (MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = record(m[type]);
    const mediaId = ident(media?.id, 256);
    if (mediaId === null) return null;
    const caption = prose(media?.caption, MAX_TEXT);
    return { text: caption, media: { mediaType: type as MediaType, providerMediaId: mediaId, caption } };
  }
  // A tap on a template's quick-reply button or on an interactive reply is the customer answering.
  if (type === 'button') {
    const label = prose(record(m.button)?.text, MAX_TEXT);
    return label === null ? null : { text: label, media: null };
  }
  if (type === 'interactive') {
    const label =
      prose(record(interactive?.button_reply)?.title, MAX_TEXT) ??
      prose(record(interactive?.list_reply)?.title, MAX_TEXT);
    return label === null ? null : { text: label, media: null };
  }
  return null;
}

const DELIVERY_STATUSES: readonly MessageDeliveryUpdateStatus[] = ['sent', 'delivered', 'read', 'failed'];

function statusItems(value: Json): ChatappInboundItem[] {
  return list(value.statuses).flatMap((raw): ChatappInboundItem[] => {
    const s = record(raw);
    const id = ident(s?.id);
    const status = text(s?.status) as MessageDeliveryUpdateStatus | null;
    const at = secondsAt(s?.timestamp);
    if (s === null || id === null || status === null || at === null || !DELIVERY_STATUSES.includes(status)) return [];
    const error = record(list(s.errors)[0]);
    const details = prose(record(error?.error_data)?.details, MAX_ERROR_MESSAGE);
    return [
      {
        kind: 'message_status',
        providerItemId: `${id}:${status}`,
        providerMessageId: id,
        status,
        at,
        errorCode: error ? prose(error.code, MAX_ERROR_CODE) : null,
        errorMessage: error
          ? (details ?? prose(error.message, MAX_ERROR_MESSAGE) ?? prose(error.title, MAX_ERROR_MESSAGE))
          : null,
      },
    ];
  });
}

function callItems(value: Json): ChatappInboundItem[] {
  const senderRef = senderRefOf(value);
  if (senderRef === null) return [];
  return list(value.calls).flatMap((raw): ChatappInboundItem[] => {
    const c = record(raw);
    const id = ident(c?.id);
    const event = c?.event;
    const at = secondsAt(c?.timestamp);
    if (c === null || id === null || (event !== 'connect' && event !== 'terminate') || at === null) return [];
    // The customer is the callee of a call the business placed and the caller of one the user placed.
    const customerPhone = e164(c.direction === 'USER_INITIATED' ? c.from : c.to);
    const status = event === 'terminate' ? (ident(c.status, 32)?.toLowerCase() ?? null) : null;
    const duration = event === 'terminate' ? secondsOf(c.duration) : null;
    return [
      {
        kind: 'call_event',
        providerItemId: `${id}:${event}`,
        providerSenderRef: senderRef,
        providerCallId: id,
        event,
        at,
        customerPhone,
        status,
        duration,
      },
    ];
  });
}

/** A call's duration: whole seconds, at most a week (longer is no real call). */
function secondsOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,7}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 7 * 86_400 ? n : null;
}

function templateItems(value: Json, time: string): ChatappInboundItem[] {
  const templateId = ident(value.message_template_id);
  const event = ident(value.event, 64);
  const status = event === null ? null : templateStatusOf(event);
  if (templateId === null || event === null || status === null) return [];
  const reason = prose(value.reason, MAX_ERROR_MESSAGE);
  const rejectionReason =
    status !== 'rejected'
      ? null
      : (prose(record(value.rejection_info)?.reason, MAX_ERROR_MESSAGE) ??
        (reason !== null && reason !== 'NONE' ? reason : event));
  return [
    {
      kind: 'template_status',
      providerItemId: `template:${templateId}:${event}:${time}`,
      providerTemplateRef: templateId,
      status,
      rejectionReason,
    },
  ];
}

/**
 * Meta names the number here only by its display form. These events are about reach, never about
 * whether the number is connected: FLAGGED (quality dropped to low) and UNFLAGGED (back up) move the
 * quality rating, and every event carries the current messaging-limit tier.
 */
function numberItems(value: Json, time: string): ChatappInboundItem[] {
  const phone = e164(value.display_phone_number);
  const event = ident(value.event, 64);
  if (phone === null || event === null) return [];
  const qualityRating = event === 'FLAGGED' ? 'RED' : event === 'UNFLAGGED' ? 'GREEN' : null;
  const messagingLimit = messagingLimitOfTier(value.current_limit);
  if (qualityRating === null && messagingLimit === null) return [];
  return [
    {
      kind: 'sender_reach',
      providerItemId: `number:${phone}:${event}:${time}`,
      providerSenderRef: phone,
      reach: { qualityRating, messagingLimit },
    },
  ];
}

/**
 * Account-wide events name the WhatsApp Business Account, not a number: the item names the WABA id,
 * and it concerns every sender registered under that account. Only the events that
 * decide whether the account's numbers can send become items.
 */
function accountItems(value: Json, accountId: string, time: string): ChatappInboundItem[] {
  const event = ident(value.event, 64);
  const banState = ident(record(value.ban_info)?.waba_ban_state, 64);
  let status: 'online' | 'offline' | null = null;
  if (event === 'ACCOUNT_DELETED') status = 'offline';
  if (event === 'DISABLED_UPDATE' && banState === 'DISABLE') status = 'offline';
  if (event === 'DISABLED_UPDATE' && banState === 'REINSTATE') status = 'online';
  if (status === null) return [];
  return [
    {
      kind: 'account_status',
      providerItemId: `account:${accountId}:${event}:${banState ?? ''}:${time}`,
      providerAccountRef: accountId,
      status,
    },
  ];
}
