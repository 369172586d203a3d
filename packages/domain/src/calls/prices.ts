import { CallChannel } from './call';

/** Price of one started minute per channel (CONTRACT §13.3; configuration, these are the defaults). */
export type CallMinutePrices = Readonly<Record<CallChannel, number>>;

export const DEFAULT_CALL_MINUTE_PRICES: CallMinutePrices = { phone: 0.1, chatapp: 0.08 };
