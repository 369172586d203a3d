import { canAfford } from '../billing/ledger';
import { fromUnits, toUnits } from '../billing/money';

/** An assistant's embeddable widget as its owner set it. */
export interface WidgetSettings {
  readonly assistantId: number;
  readonly userId: number;
  /** Public: it is in every page that embeds the widget. It names the widget; the origin check guards it. */
  readonly widgetKey: string;
  readonly enabled: boolean;
  /** `scheme://host[:port]`, lower case; a page on any other origin is refused. */
  readonly allowedOrigins: readonly string[];
  /** USD per UTC day the widget's chats may spend; 0 stops billed replies. */
  readonly dailyCap: number;
}

/** Defaults of a widget never configured: off, no origins, a cap of 5 USD a day. */
export const DEFAULT_WIDGET_DAILY_CAP = 5;
/** Messages one visitor may send per minute, and all visitors of one assistant together. */
export const WIDGET_VISITOR_MESSAGES_PER_MINUTE = 10;
export const WIDGET_ASSISTANT_MESSAGES_PER_MINUTE = 120;
/** Conversations one address may start per minute on one widget. */
export const WIDGET_STARTS_PER_MINUTE = 10;
export const WIDGET_ORIGINS_MAX = 20;

/** `https://Shop.example.com:443/path` → `https://shop.example.com`; null when it is no http(s) origin. */
export function normalizeOrigin(text: string): string | null {
  const m = /^(https?):\/\/([^/:?#\s@]+)(?::(\d{1,5}))?\/?$/i.exec(text.trim());
  if (m === null) return null;
  const scheme = m[1].toLowerCase();
  const port =
    m[3] === undefined || (scheme === 'https' && m[3] === '443') || (scheme === 'http' && m[3] === '80')
      ? ''
      : `:${Number(m[3])}`;
  return `${scheme}://${m[2].toLowerCase()}${port}`;
}

export type WidgetRefusal = 'widget_not_found' | 'origin_not_allowed';

/** A request from a page: the widget must be on and the page's `Origin` one its owner allowed. A missing origin is refused. */
export function checkWidgetRequest(settings: WidgetSettings | null, origin: string | undefined): WidgetRefusal | null {
  if (settings === null || !settings.enabled) return 'widget_not_found';
  const normalized = origin === undefined ? null : normalizeOrigin(origin);
  return normalized !== null && settings.allowedOrigins.includes(normalized) ? null : 'origin_not_allowed';
}

/** Whether one more charge of `price` stays within the day's cap, given what the widget spent since midnight UTC. */
export function withinDailyCap(spentToday: number, price: number, cap: number): boolean {
  return canAfford(fromUnits(toUnits(cap) - toUnits(spentToday)), price);
}

/** The start of the UTC day `now` falls in: the cap's period. */
export function capPeriodStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
