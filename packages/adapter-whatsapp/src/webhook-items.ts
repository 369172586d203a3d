import type { ChatappInboundItem } from '@voiceplane/application';
import { MEDIA_TYPES, MediaType, MessageDeliveryUpdateStatus } from '@voiceplane/domain';
import { messagingLimitOfTier } from './number-reach';
import { templateStatusOf } from './template-status';

/**
 * Meta's webhook notification (`object: whatsapp_business_account`) in voiceplane's ingress items
 * (CONTRACT §8.12). Each `entry[].changes[]` carries one `field`; anything this product does not act
 * on (reactions, locations, quality scores, …) yields no item. The payload is read defensively:
 * it is signed, but its shape is Meta's and changes between Graph versions.
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
    const accountId = text(e.id);
    const time = text(e.time) ?? '0';
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
          items.push(...templateItems(value, time));
          break;
        case 'phone_number_quality_update':
          items.push(...numberItems(value, time));
          break;
        case 'account_update':
          if (accountId !== null) items.push(...accountItems(value, accountId, time));
          break;
        default:
          break;
      }
    }
  }
  return items;
}

type Json = Record<string, unknown>;

const record = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
/** Meta's timestamps are Unix seconds, as strings or numbers. */
const secondsAt = (v: unknown): Date | null => {
  const s = text(v);
  return s !== null && /^\d+$/.test(s) ? new Date(Number(s) * 1000) : null;
};
/** Meta sends numbers as digits without `+`; voiceplane keeps E.164. */
const e164 = (v: unknown): string | null => {
  const s = text(v);
  return s === null ? null : `+${s.replace(/^\+/, '')}`;
};
const senderRefOf = (value: Json): string | null => text(record(value.metadata)?.phone_number_id);

function messageItems(value: Json): ChatappInboundItem[] {
  const senderRef = senderRefOf(value);
  if (senderRef === null) return [];
  const names = new Map<string, string>();
  for (const contact of list(value.contacts)) {
    const c = record(contact);
    const waId = text(c?.wa_id);
    const name = text(record(c?.profile)?.name);
    if (waId !== null && name !== null) names.set(waId, name);
  }
  return list(value.messages).flatMap((raw): ChatappInboundItem[] => {
    const m = record(raw);
    const id = text(m?.id);
    const from = text(m?.from);
    const at = secondsAt(m?.timestamp);
    if (m === null || id === null || from === null || at === null) return [];
    const customerPhone = e164(from) as string;
    const type = text(m.type);
    const interactive = record(m.interactive);
    if (type === 'interactive' && interactive?.type === 'call_permission_reply') {
      const reply = record(interactive.call_permission_reply);
      const response = reply?.response;
      if (response !== 'accept' && response !== 'reject') return [];
      return [{
        kind: 'call_permission_reply', providerItemId: id, providerSenderRef: senderRef, customerPhone, response,
        isPermanent: reply?.is_permanent === true, expiresAt: secondsAt(reply?.expiration_timestamp), at,
      }];
    }
    const content = messageContent(type, m, interactive);
    if (content === null) return [];
    return [{
      kind: 'customer_message', providerItemId: id, providerSenderRef: senderRef, customerPhone,
      customerName: names.get(from) ?? null, text: content.text, media: content.media, receivedAt: at,
    }];
  });
}

type Content = { text: string | null; media: { mediaType: MediaType; providerMediaId: string; caption: string | null } | null };

/** What a customer wrote or sent; null for what the product does not take in (reactions, locations, stickers, …). */
function messageContent(type: string | null, m: Json, interactive: Json | null): Content | null {
  if (type === 'text') {
    const body = text(record(m.text)?.body);
    return body === null ? null : { text: body, media: null };
  }
  if (type !== null && (MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = record(m[type]);
    const mediaId = text(media?.id);
    if (mediaId === null) return null;
    const caption = text(media?.caption);
    return { text: caption, media: { mediaType: type as MediaType, providerMediaId: mediaId, caption } };
  }
  // A tap on a template's quick-reply button or on an interactive reply is the customer answering.
  if (type === 'button') {
    const label = text(record(m.button)?.text);
    return label === null ? null : { text: label, media: null };
  }
  if (type === 'interactive') {
    const label = text(record(interactive?.button_reply)?.title) ?? text(record(interactive?.list_reply)?.title);
    return label === null ? null : { text: label, media: null };
  }
  return null;
}

const DELIVERY_STATUSES: readonly MessageDeliveryUpdateStatus[] = ['sent', 'delivered', 'read', 'failed'];

function statusItems(value: Json): ChatappInboundItem[] {
  return list(value.statuses).flatMap((raw): ChatappInboundItem[] => {
    const s = record(raw);
    const id = text(s?.id);
    const status = text(s?.status) as MessageDeliveryUpdateStatus | null;
    const at = secondsAt(s?.timestamp);
    if (s === null || id === null || status === null || at === null || !DELIVERY_STATUSES.includes(status)) return [];
    const error = record(list(s.errors)[0]);
    const details = text(record(error?.error_data)?.details);
    return [{
      kind: 'message_status', providerItemId: `${id}:${status}`, providerMessageId: id, status, at,
      errorCode: error ? text(error.code) : null,
      errorMessage: error ? details ?? text(error.message) ?? text(error.title) : null,
    }];
  });
}

function callItems(value: Json): ChatappInboundItem[] {
  const senderRef = senderRefOf(value);
  if (senderRef === null) return [];
  return list(value.calls).flatMap((raw): ChatappInboundItem[] => {
    const c = record(raw);
    const id = text(c?.id);
    const event = c?.event;
    const at = secondsAt(c?.timestamp);
    if (id === null || (event !== 'connect' && event !== 'terminate') || at === null) return [];
    return [{ kind: 'call_event', providerItemId: `${id}:${event}`, providerSenderRef: senderRef, providerCallId: id, event, at }];
  });
}

function templateItems(value: Json, time: string): ChatappInboundItem[] {
  const templateId = text(value.message_template_id);
  const event = text(value.event);
  const status = event === null ? null : templateStatusOf(event);
  if (templateId === null || event === null || status === null) return [];
  const reason = text(value.reason);
  const rejectionReason = status !== 'rejected' ? null : text(record(value.rejection_info)?.reason) ?? (reason !== null && reason !== 'NONE' ? reason : event);
  return [{ kind: 'template_status', providerItemId: `template:${templateId}:${event}:${time}`, providerTemplateRef: templateId, status, rejectionReason }];
}

/**
 * Meta names the number here only by its display form. These events are about reach, never about
 * whether the number is connected: FLAGGED (quality dropped to low) and UNFLAGGED (back up) move the
 * quality rating, and every event carries the current messaging-limit tier.
 */
function numberItems(value: Json, time: string): ChatappInboundItem[] {
  const phone = e164(value.display_phone_number);
  const event = text(value.event);
  if (phone === null || event === null) return [];
  const qualityRating = event === 'FLAGGED' ? 'RED' : event === 'UNFLAGGED' ? 'GREEN' : null;
  const messagingLimit = messagingLimitOfTier(value.current_limit);
  if (qualityRating === null && messagingLimit === null) return [];
  return [{ kind: 'sender_reach', providerItemId: `number:${phone}:${event}:${time}`, providerSenderRef: phone, reach: { qualityRating, messagingLimit } }];
}

/**
 * Account-wide events name the WhatsApp Business Account, not a number: the item names the WABA id,
 * and it concerns every sender registered under that account. Only the events that
 * decide whether the account's numbers can send become items.
 */
function accountItems(value: Json, accountId: string, time: string): ChatappInboundItem[] {
  const event = text(value.event);
  const banState = text(record(value.ban_info)?.waba_ban_state);
  let status: 'online' | 'offline' | null = null;
  if (event === 'ACCOUNT_DELETED') status = 'offline';
  if (event === 'DISABLED_UPDATE' && banState === 'DISABLE') status = 'offline';
  if (event === 'DISABLED_UPDATE' && banState === 'REINSTATE') status = 'online';
  if (status === null) return [];
  return [{ kind: 'account_status', providerItemId: `account:${accountId}:${event}:${banState ?? ''}:${time}`, providerAccountRef: accountId, status }];
}
