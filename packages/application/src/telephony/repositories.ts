import { NumberCountry, SipTrunkSettings } from '@voiceplane/domain';

/** A SIP trunk as stored: the password only encrypted, plus the provider's ids. */
export interface StoredSipTrunk extends Omit<SipTrunkSettings, 'sipPassword'> {
  readonly id: number;
  readonly userId: number;
  readonly sipPasswordCipher: string;
  readonly inboundTrunkId: string;
  readonly outboundTrunkId: string;
  readonly inboundRouteId: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type SipTrunkIdentity = Pick<SipTrunkSettings, 'phoneNumber' | 'sipUsername' | 'sipAddress'>;

export interface SipTrunkRepository {
  /** The account's trunks, newest first. */
  list(userId: number): Promise<StoredSipTrunk[]>;
  find(userId: number, id: number): Promise<StoredSipTrunk | null>;
  /** A phone-number id taken before anything is stored, so provider trunks can carry it. */
  reserveId(): Promise<number>;
  /** Serialises trunk writes of one account until the transaction ends (duplicate check). */
  lockAccount(userId: number): Promise<void>;
  /** Another trunk of the account with the same number, username and address (host case-insensitive). */
  hasDuplicate(userId: number, identity: SipTrunkIdentity, exceptId: number | null): Promise<boolean>;
  /** Stores the trunk and its phone-number record (type `sip`) under the reserved id. */
  insert(trunk: StoredSipTrunk): Promise<StoredSipTrunk>;
  /** Null when the row was changed or deleted since it was read at `readAt` (its `updatedAt`). */
  update(trunk: StoredSipTrunk, readAt: Date): Promise<StoredSipTrunk | null>;
}

export type PhoneNumberType = 'purchased' | 'sip';

export interface PhoneNumber {
  readonly id: number;
  readonly userId: number;
  readonly phoneNumber: string;
  readonly type: PhoneNumberType;
  readonly countryCode: string;
  readonly nickname: string | null;
  readonly smsCapable: boolean;
  readonly monthlyPrice: number | null;
  readonly inboundAssistantId: number | null;
  /** The number provider's id of a purchased number (needed to release it). */
  readonly providerReference: string | null;
  /** Next monthly charge of a purchased number. */
  readonly renewsAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NewPurchasedNumber {
  readonly userId: number;
  readonly phoneNumber: string;
  readonly countryCode: NumberCountry;
  readonly smsCapable: boolean;
  readonly monthlyPrice: number;
  readonly providerReference: string | null;
  readonly purchasedAt: Date;
  readonly renewsAt: Date;
}

export interface PhoneNumberRepository {
  /** The account's numbers of both types, newest first. */
  list(userId: number): Promise<PhoneNumber[]>;
  find(userId: number, id: number): Promise<PhoneNumber | null>;
  /** Which of these numbers some account has purchased. */
  purchasedAmong(phoneNumbers: readonly string[]): Promise<Set<string>>;
  /** Null when another account owns the number already. */
  insertPurchased(number: NewPurchasedNumber): Promise<PhoneNumber | null>;
  /**
   * Deletes the number (its SIP trunk row goes with it) and unassigns it from the account's
   * assistants. False when there was nothing to delete.
   */
  delete(userId: number, id: number): Promise<boolean>;
  /** Locks and returns one purchased number whose renewal is due, skipping rows others hold. */
  claimDueRenewal(now: Date): Promise<PhoneNumber | null>;
  setRenewsAt(id: number, renewsAt: Date): Promise<void>;
  /** Sets the owner's number's nickname (a SIP trunk's too: they share it); null for another account's number. */
  rename(userId: number, id: number, nickname: string | null, at: Date): Promise<PhoneNumber | null>;
}

/** What the cleanup job finishes when the provider did not answer in time. */
export type CleanupAction = 'delete_trunk' | 'delete_route' | 'point_route' | 'delete_number';

export interface CleanupTask {
  readonly id: number;
  readonly action: CleanupAction;
  /**
   * Trunk id (`delete_trunk`), route id (`delete_route`, `point_route`), or `<account id>:<number id>`
   * (`delete_number`: a delete whose provider call may have happened; see `DeletePhoneNumber`).
   */
  readonly resourceId: string;
  /** `point_route`: the trunk the route must point at again. */
  readonly targetTrunkId: string | null;
  /** Trunks to delete once the action succeeded (they were still referenced before). */
  readonly releaseTrunkIds: readonly string[];
  /** `delete_trunk` of a trunk that carried calls: wait until it is idle (at most 24 h). */
  readonly waitForCalls: boolean;
  readonly attempts: number;
  readonly createdAt: Date;
}

export type NewCleanupTask = Pick<CleanupTask, 'action' | 'resourceId'> &
  Partial<Pick<CleanupTask, 'targetTrunkId' | 'releaseTrunkIds' | 'waitForCalls'>>;

/** Durable provider clean-up: written in the same transaction as the change that needs it. */
export interface ProvisioningCleanupQueue {
  /** Tasks become due at `dueAt`. */
  add(tasks: readonly NewCleanupTask[], dueAt: Date, now: Date): Promise<CleanupTask[]>;
  /**
   * A `delete_number` intent, unless one for the same number is stored already (another delete is under
   * way, or a dead one is left for the job): then null, and nothing is stored.
   */
  addDeleteIntent(resourceId: string, dueAt: Date, now: Date): Promise<CleanupTask | null>;
  /** Takes due tasks for this worker: they are not due again before `leaseUntil`. */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<CleanupTask[]>;
  complete(id: number): Promise<void>;
  retryAt(id: number, at: Date, error: string): Promise<void>;
  /** Tasks not finished yet (operations, tests). */
  pending(): Promise<CleanupTask[]>;
}
