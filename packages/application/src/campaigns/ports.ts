import { CampaignStatus, GroupChange, LeadGroup, LeadStatus, StopReason, Weekday } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

/** What a campaign's owner sets (create and update). */
export interface CampaignSettings {
  readonly name: string;
  readonly assistantId: number;
  readonly timezone: string;
  readonly maxCallsInParallel: number;
  readonly markCompleteWhenNoLeads: boolean;
  readonly startMinute: number;
  readonly endMinute: number;
  readonly allowedDays: readonly Weekday[];
  readonly maxRetries: number;
  /** Minutes. */
  readonly retryInterval: number;
  readonly retryOnVoicemail: boolean;
  readonly retryOnGoalIncomplete: boolean;
  readonly goalCompletionVariable: string | null;
  /** The caller-ID pool, in rotation order. */
  readonly phoneNumberIds: readonly number[];
  /** Each contact's window is read in its own zone (`Lead.timezoneUsed`). */
  readonly windowInLeadTimezone: boolean;
}

export interface Campaign extends CampaignSettings {
  readonly id: number;
  readonly userId: number;
  readonly status: CampaignStatus;
  readonly stopReason: StopReason | null;
  readonly startedAt: Date | null;
  readonly completedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Primary leads. */
  readonly leadsCount: number;
}

/** A status change; absent fields stay. */
export interface CampaignStatusChange {
  readonly status: CampaignStatus;
  readonly stopReason: StopReason | null;
  readonly startedAt?: Date;
  readonly completedAt: Date | null;
}

export interface CampaignStats {
  readonly leadsByStatus: Readonly<Record<LeadStatus, number>>;
  readonly secondaryContacts: number;
  readonly callsTotal: number;
  readonly callsAnswered: number;
  readonly costSoFar: number;
  readonly averageCallDuration: number;
  readonly nextAttemptAt: Date | null;
}

export interface CampaignRepository {
  create(userId: number, settings: CampaignSettings, now: Date): Promise<Campaign>;
  count(userId: number): Promise<number>;
  /** Id ascending. */
  list(userId: number): Promise<Campaign[]>;
  /** Null for a missing id and for another account's alike; `lock` holds the row to the end of the transaction. */
  findOwned(userId: number, id: number, options?: { readonly lock?: boolean }): Promise<Campaign | null>;
  update(id: number, settings: CampaignSettings, now: Date): Promise<void>;
  setStatus(id: number, change: CampaignStatusChange, now: Date): Promise<void>;
  /** The campaign with its leads; calls keep their ids. */
  delete(userId: number, id: number): Promise<boolean>;
  stats(id: number): Promise<CampaignStats>;
  /**
   * Dialer and call-end side (any account). With `skipLocked` the row is locked unless another
   * transaction holds it (then null): one holder per campaign.
   */
  findById(id: number, options?: { readonly lock?: boolean; readonly skipLocked?: boolean }): Promise<Campaign | null>;
  /** Calls of the campaign not yet ended. */
  countOpenCalls(id: number): Promise<number>;
  /** How many calls the campaign placed before this one (the caller-ID pool's turn), counting this one. */
  takeCallTurn(id: number): Promise<number>;
}

/** One contact; a primary lead carries its secondary contacts. */
export interface Lead {
  readonly id: number;
  readonly userId: number;
  readonly campaignId: number;
  readonly campaignName: string;
  readonly primaryLeadId: number | null;
  readonly phoneNumber: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly status: LeadStatus;
  readonly attempts: number;
  readonly nextAttemptAt: Date | null;
  readonly lastCallId: number | null;
  /** The zone the contact's window is read in: its own when the campaign reads windows so and one is known, else the campaign's. */
  readonly timezoneUsed: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** In calling order; empty on a secondary contact. */
  readonly secondaryContacts: readonly Lead[];
}

export interface NewContact {
  readonly phoneNumber: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly status: LeadStatus;
}

export interface NewLead extends NewContact {
  readonly secondaryContacts: readonly NewContact[];
}

export interface LeadFilter {
  readonly status?: LeadStatus;
  readonly campaignId?: number;
  /** Digits (and `+`) found in the lead's number or one of its secondary contacts'. */
  readonly phoneNumber?: string;
  /** Bounds on `created_at`, inclusive. */
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
}

/** What a lead update writes; absent fields stay. */
export interface LeadChanges {
  readonly campaignId?: number;
  readonly phoneNumber?: string;
  /** The whole variable set after the merge. */
  readonly variables?: Readonly<Record<string, string>>;
  /** Applied to the lead, and to its group when it is a primary; resets attempts and rounds for `created`. */
  readonly status?: LeadStatus;
}

export interface LeadRepository {
  /** Stores the lead and its secondary contacts in order. */
  create(userId: number, campaignId: number, leads: readonly NewLead[], now: Date): Promise<number[]>;
  /** Primary and secondary contacts of the campaign. */
  countInCampaign(campaignId: number): Promise<number>;
  /** Which of these numbers primary leads of the campaign already have. */
  takenPhones(campaignId: number, phones: readonly string[]): Promise<Set<string>>;
  /** Primary leads, newest first. */
  list(userId: number, filter: LeadFilter, page: PageRequest): Promise<Page<Lead>>;
  findOwned(userId: number, id: number): Promise<Lead | null>;
  /** Whether a contact of the lead's group is being called; `lock` holds the group's primary row. */
  groupBeingCalled(id: number, options?: { readonly lock?: boolean }): Promise<boolean>;
  update(id: number, changes: LeadChanges, now: Date): Promise<void>;
  delete(id: number): Promise<void>;
  /** Whether the campaign has a lead the dialer still works on (due, being called, waiting for a round). */
  hasPending(campaignId: number): Promise<boolean>;
  /** Groups whose next round is due at `at`: their `rescheduled` contacts become `scheduled`. */
  promoteDueRounds(campaignId: number, at: Date): Promise<void>;
  /**
   * The contacts to call next: of each group with none being called, its first due contact;
   * oldest due first (`created_at` of a new contact, `next_attempt_at` of a retry), then id.
   */
  dueContacts(campaignId: number, limit: number, zones?: DueZones): Promise<DueContact[]>;
  /** The zones (null: the campaign's) of the campaign's contacts that are due. */
  dueZones(campaignId: number): Promise<Array<string | null>>;
  /** The contact is being called by `callId`. */
  markCalling(id: number, callId: number, now: Date): Promise<void>;
  /** The group of a contact, its primary row locked; null when the contact is gone. */
  groupOf(id: number): Promise<StoredGroup | null>;
  applyGroupChange(group: StoredGroup, change: GroupChange, now: Date): Promise<void>;
  /** Any account's contact. */
  findById(id: number): Promise<Lead | null>;
}

/** Only contacts of these zones (null: contacts read in the campaign's zone). */
export type DueZones = ReadonlyArray<string | null>;

/** A contact the dialer calls: its number and its variables over its primary's. */
export interface DueContact {
  readonly id: number;
  readonly phoneNumber: string;
  readonly variables: Readonly<Record<string, string>>;
}

/** A lead group as stored: the primary first, then its secondary contacts in order. */
export interface StoredGroup extends LeadGroup {
  readonly primaryId: number;
  readonly campaignId: number;
  /** The last call of each contact. */
  readonly lastCallIds: ReadonlyMap<number, number | null>;
}

export type { Page, PageRequest };
