import { CallChannel } from './call';
import { fromUnits, toUnits } from '../billing/money';

/** Price of one started minute per channel (configuration, these are the defaults). */
export type CallMinutePrices = Readonly<Record<CallChannel, number>>;

export const DEFAULT_CALL_MINUTE_PRICES: CallMinutePrices = { phone: 0.1, chatapp: 0.08 };

/** How many of an account's calls are in progress (not yet ended), per channel. */
export type OpenCallCounts = Readonly<Record<CallChannel, number>>;

/**
 * The balance a new call may count on: what is left once the first minute of every call in
 * progress is spoken for. Calls are charged when they end, so without this reservation every
 * call started on a one-minute balance at once would start. Ending a call releases its minute.
 */
export function balanceForNewCall(balance: number, open: OpenCallCounts, prices: CallMinutePrices): number {
  return fromUnits(toUnits(balance) - toUnits(reservedForOpenCalls(open, prices)));
}

/** What the calls in progress hold of the balance: the first minute of each, at its channel's price. */
export function reservedForOpenCalls(open: OpenCallCounts, prices: CallMinutePrices): number {
  return fromUnits(toUnits(prices.phone) * open.phone + toUnits(prices.chatapp) * open.chatapp);
}
