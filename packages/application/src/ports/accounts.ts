import { LedgerEntry, LedgerEntryType, Plan, Result, User } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

export interface NewUser {
  readonly name: string;
  readonly email: string;
  readonly passwordHash: string | null;
  readonly plan: Plan;
}

export interface UserRepository {
  /** Null when the e-mail (case-insensitive) is taken. */
  create(user: NewUser): Promise<User | null>;
  findById(id: number): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  list(page: PageRequest, email?: string): Promise<Page<User>>;
  updatePlan(id: number, plan: Plan): Promise<void>;
  setDisabled(id: number, disabled: boolean): Promise<void>;
  /**
   * Locks the row until the surrounding transaction ends, which serialises whatever else takes
   * it (balance postings, make_call's concurrency check); answers the balance, null when missing.
   */
  lockBalance(id: number): Promise<number | null>;
}

export type NewLedgerEntry = Omit<LedgerEntry, 'id' | 'createdAt'>;

/** What a balance change decided: the entry to append, which carries the balance after it. */
export type LedgerPosting = Omit<NewLedgerEntry, 'userId'>;

export type UserNotFound = { readonly code: 'user_not_found' };

export interface PostingOptions {
  /** Runs last, in the same transaction and under the same lock, with the appended entry and the balance before it. */
  readonly followUp?: (entry: LedgerEntry, balanceBefore: number) => Promise<void>;
  /**
   * The balance the caller read with `UserRepository.lockBalance` in this same transaction: the
   * row lock is held already, so the posting decides on it without reading the row again.
   */
  readonly heldBalance?: number;
  /**
   * This posting commits the outcome its use case is answered with: that outcome, from the posted
   * entry or the refusal (see `TransactionOptions.concludes`).
   */
  readonly concludes?: (posted: Result<LedgerEntry, unknown>) => unknown;
}

export interface LedgerRepository {
  /**
   * Every balance change: in one transaction (the caller's, when there is one) locks the user's
   * row, hands the balance to `decide`, then stores the entry's `balanceAfter` as the balance and
   * appends the entry. A refusal writes nothing.
   */
  post<E>(
    userId: number,
    decide: (balance: number) => Result<LedgerPosting, E>,
    options?: PostingOptions,
  ): Promise<Result<LedgerEntry, E | UserNotFound>>;
  list(userId: number, page: PageRequest, type?: LedgerEntryType): Promise<Page<LedgerEntry>>;
}

export interface ApiKey {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly lastUsedAt: Date | null;
  readonly createdAt: Date;
}

/** Who a bearer token speaks for. */
export interface Principal {
  readonly userId: number;
  readonly tokenKind: 'api_key' | 'session';
  readonly tokenId: number;
  readonly plan: Plan;
  /** Only API keys: when `last_used_at` was last written. */
  readonly lastUsedAt: Date | null;
  /** Only sessions: when the session ends. */
  readonly expiresAt: Date | null;
}

export interface CredentialRepository {
  createApiKey(userId: number, name: string, tokenHash: string): Promise<ApiKey>;
  listApiKeys(userId: number): Promise<ApiKey[]>;
  /** False when no such key of this user exists. */
  deleteApiKey(userId: number, id: number): Promise<boolean>;
  createSession(userId: number, tokenHash: string, expiresAt: Date): Promise<void>;
  revokeSession(sessionId: number, at: Date): Promise<void>;
  /** Live key or unexpired, unrevoked session of an enabled user. */
  findPrincipal(tokenHash: string, now: Date): Promise<Principal | null>;
  touchApiKey(id: number, at: Date): Promise<void>;
}

export interface SigningSecret {
  readonly secret: string;
  readonly createdAt: Date;
  readonly previousSecret: string | null;
  readonly previousExpiresAt: Date | null;
}

export interface SigningSecretRepository {
  create(userId: number, secret: string): Promise<void>;
  get(userId: number): Promise<SigningSecret | null>;
  rotate(userId: number, secret: string, previousExpiresAt: Date): Promise<SigningSecret>;
}

/** Values generated once per deployment (admin/runtime tokens, encryption keys). */
export interface SettingsRepository {
  /** Returns the stored value, storing `candidate` first when none exists (race-safe). */
  getOrCreate(key: string, candidate: string): Promise<{ value: string; created: boolean }>;
}
