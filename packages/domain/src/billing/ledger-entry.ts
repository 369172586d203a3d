import { LedgerEntryType, LedgerReferenceType } from './ledger';

/** One append-only change of a user's balance. */
export interface LedgerEntry {
  readonly id: number;
  readonly userId: number;
  readonly type: LedgerEntryType;
  readonly amount: number;
  readonly balanceAfter: number;
  readonly description: string;
  readonly reference: { readonly type: LedgerReferenceType; readonly id: number } | null;
  readonly requestId: string | null;
  readonly createdAt: Date;
}
