/** The account's do-not-call list as every feature that places calls reads it. */

export interface DoNotCallEntry {
  readonly id: number;
  readonly userId: number;
  /** E.164. */
  readonly phoneNumber: string;
  readonly reason: string | null;
  readonly createdAt: Date;
}

export interface NewDoNotCallEntry {
  readonly phoneNumber: string;
  readonly reason: string | null;
}

/** One account's listed numbers. */
export interface DoNotCallList {
  /** Adds the numbers the account does not list yet (the others stay as they are); how many were added. */
  add(userId: number, entries: readonly NewDoNotCallEntry[], now: Date): Promise<number>;
  count(userId: number): Promise<number>;
  /** Newest first (id descending), those with an id below `before` when given. */
  list(
    userId: number,
    filter: { readonly phoneNumber?: string },
    before: number | null,
    limit: number,
  ): Promise<DoNotCallEntry[]>;
  /** False for a missing id and for another account's alike. */
  remove(userId: number, id: number): Promise<boolean>;
  /** Which of these numbers the account lists. */
  listed(userId: number, phoneNumbers: readonly string[]): Promise<Set<string>>;
}
