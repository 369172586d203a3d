import type { ChatappInboundItem } from './provider-ports';

/** The chat-app providers with an ingress of their own; the sandbox is driven by its own routes instead. */
export type IngressProvider = 'whatsapp';

/**
 * A provider's ingress as the HTTP route sees it: the subscription handshake and the signed
 * notifications. Both answers are decided here, where the provider's secrets are; the route only
 * carries bytes in and answers out.
 */
export interface ChatappIngressGate {
  readonly provider: IngressProvider;
  /** The handshake's challenge to echo back, or null when the handshake must be refused. */
  answerChallenge(query: Readonly<Record<string, unknown>>): string | null;
  /**
   * The items of a notification whose signature holds over exactly these bytes; null when it does
   * not. A signed body the gate cannot read yields no items (acknowledged, nothing stored).
   */
  open(rawBody: Buffer, signature: string | null): readonly ChatappInboundItem[] | null;
}

export interface StoredInboundItem {
  readonly id: number;
  readonly provider: IngressProvider;
  readonly item: ChatappInboundItem;
  readonly processedAt: Date | null;
}

/**
 * Verified ingress items waiting to be handled, one row per provider item: the provider retries
 * its notifications and sends some twice, so the inbox is where duplicates stop.
 */
export interface ChatappInbox {
  /** Ids of the items stored by this call; an item already in the inbox is left alone and not listed. */
  add(provider: IngressProvider, items: readonly ChatappInboundItem[], receivedAt: Date): Promise<number[]>;
  find(id: number): Promise<StoredInboundItem | null>;
  markProcessed(id: number, at: Date): Promise<void>;
  /** Deletes up to `limit` items handled before `cutoff`; answers how many went. */
  purgeProcessedBefore(cutoff: Date, limit: number): Promise<number>;
}
