import { AddressRequirement, NumberCountry } from '@voiceplane/domain';

/** Whose trunk an operation concerns: providers name and tag trunks after it. */
export interface TrunkOwner {
  readonly accountId: number;
  /** The phone-number id the trunk backs (reserved before the trunk exists). */
  readonly phoneNumberId: number;
}

export interface SipCredentials {
  readonly username: string;
  /** Plain text: only the provisioner ever sees it. */
  readonly password: string;
}

/** Calls arriving from the carrier: who may send them and for which number. */
export interface InboundTrunkSpec {
  readonly owner: TrunkOwner;
  readonly phoneNumber: string;
  readonly credentials: SipCredentials;
  /** `auth`: the carrier authenticates with the credentials; `ip`: only `allowedAddresses` may send. */
  readonly authorization: 'auth' | 'ip';
  /** Empty unless `authorization` is `ip`. */
  readonly allowedAddresses: readonly string[];
}

/** Calls leaving towards the carrier. */
export interface OutboundTrunkSpec {
  readonly owner: TrunkOwner;
  readonly phoneNumber: string;
  readonly credentials: SipCredentials;
  /** The carrier's SIP host (no scheme, no port). */
  readonly address: string;
  /** True: calls must leave through the fixed egress IP address. */
  readonly viaFixedEgress: boolean;
}

/**
 * The voice platform's SIP side: provider trunks and the inbound routing that hands calls on an
 * inbound trunk to voiceplane's assistants. Every call either succeeds or throws; deleting
 * something that no longer exists succeeds.
 */
export interface SipProvisioner {
  /** Returns the provider's trunk id. */
  createInboundTrunk(spec: InboundTrunkSpec): Promise<string>;
  createOutboundTrunk(spec: OutboundTrunkSpec): Promise<string>;
  /** Starts routing calls of the inbound trunk to voiceplane; returns the route id. */
  routeInboundCalls(owner: TrunkOwner, phoneNumber: string, inboundTrunkId: string): Promise<string>;
  /** Moves an existing route onto another inbound trunk (make-before-break, step 2). */
  pointInboundRoute(routeId: string, inboundTrunkId: string): Promise<void>;
  deleteInboundRoute(routeId: string): Promise<void>;
  deleteTrunk(trunkId: string): Promise<void>;
  /** True while deleting the trunk would drop an established call. */
  trunkHasActiveCalls(trunkId: string): Promise<boolean>;
}

/** The SIP trunk a chat-app sender's calls leave through (WhatsApp Business Calling). */
export interface ChatappCallingTrunkSpec {
  readonly senderId: number;
  readonly accountId: number;
  /** The business number: the trunk's number and the digest username. */
  readonly phoneNumber: string;
  /** The SIP password the chat app issued for the number. */
  readonly sipPassword: string;
}

/** Outbound trunks towards the chat app's SIP edge, one per sender. */
export interface ChatappCallingTrunks {
  /** Returns the provider's trunk id. */
  createChatappCallingTrunk(spec: ChatappCallingTrunkSpec): Promise<string>;
  deleteTrunk(trunkId: string): Promise<void>;
}

/** One purchasable number as offered. */
export interface AvailableNumber {
  readonly phoneNumber: string;
  readonly phoneNumberFormatted: string;
  readonly countryCode: NumberCountry;
  /** Monthly rental, USD. */
  readonly price: number;
  readonly billingPriceId: string;
  readonly addressRequirements: AddressRequirement;
  readonly smsCapable: boolean;
}

export interface NumberSearch {
  readonly countryCode: NumberCountry;
  /** Digits that must appear in the number, or null. */
  readonly contains: string | null;
  readonly limit: number;
  /** The account searching (providers may tailor offers; the sandbox scopes armed faults by it). */
  readonly accountId: number;
}

/** Who buys or releases a number. */
export interface NumberHolder {
  readonly accountId: number;
  /** Null before the number is stored. */
  readonly phoneNumberId: number | null;
}

/** Where purchasable numbers come from. Failures throw. */
export interface NumberInventory {
  search(query: NumberSearch): Promise<AvailableNumber[]>;
  /** The current offer for exactly this number, or null when it is not offered. */
  find(phoneNumber: string, holder: NumberHolder): Promise<AvailableNumber | null>;
  /**
   * Buys the number; returns the provider's reference for a later release, or null when the
   * number was taken in the meantime.
   */
  purchase(offer: AvailableNumber, holder: NumberHolder): Promise<{ readonly reference: string | null } | null>;
  /** Gives a purchased number back; releasing one that is already gone succeeds. */
  release(phoneNumber: string, reference: string | null, holder: NumberHolder): Promise<void>;
}

/** Operational log lines (never credentials): failures the caller does not see. */
export interface OperationsLog {
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}
