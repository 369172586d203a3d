/** Campaigns call lists of leads with one outbound assistant, inside calling windows, with retries. */
export const CAMPAIGN_STATUSES = ['draft', 'in-progress', 'stopped', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Why a campaign is `stopped`. */
export const STOP_REASONS = ['user', 'insufficient_balance', 'assistant_unavailable', 'no_caller_line'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export const LEAD_STATUSES = [
  'created',
  'scheduled',
  'processing',
  'completed',
  'rescheduled',
  'reached-max-retries',
  'blacklisted',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
/** Statuses a user may set on a lead. */
export const SETTABLE_LEAD_STATUSES = ['created', 'completed', 'reached-max-retries'] as const;
export type SettableLeadStatus = (typeof SETTABLE_LEAD_STATUSES)[number];

/** Due: the dialer may call the contact now (inside the window, with a free line). */
export const DUE_LEAD_STATUSES: readonly LeadStatus[] = ['created', 'scheduled'];
/** Pending: the campaign still has work for the contact. */
export const PENDING_LEAD_STATUSES: readonly LeadStatus[] = ['created', 'scheduled', 'processing', 'rescheduled'];

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const CAMPAIGN_LIMITS = {
  nameMax: 255,
  parallelMax: 10,
  parallelDefault: 3,
  retriesMin: 1,
  retriesMax: 5,
  retriesDefault: 3,
  retryIntervalMin: 10,
  retryIntervalMax: 4320,
  retryIntervalDefault: 60,
  goalVariableMax: 255,
  phoneNumbersMax: 50,
  leadsPerCampaign: 100_000,
  secondaryContactsMax: 10,
} as const;

/** The most parallel calls a campaign may have on a plan with `maxConcurrentCalls`. */
export function parallelCallsMax(maxConcurrentCalls: number): number {
  return Math.max(1, Math.min(CAMPAIGN_LIMITS.parallelMax, maxConcurrentCalls));
}

/** The default parallel calls, never above what the plan allows. */
export function parallelCallsDefault(maxConcurrentCalls: number): number {
  return Math.min(CAMPAIGN_LIMITS.parallelDefault, parallelCallsMax(maxConcurrentCalls));
}

/** Weekdays matched case-insensitively, duplicates removed, in Monday→Sunday order; null when one is unknown. */
export function normalizeWeekdays(days: readonly string[]): Weekday[] | null {
  const wanted = new Set(days.map((d) => d.trim().toLowerCase()));
  for (const day of wanted) if (!(WEEKDAYS as readonly string[]).includes(day)) return null;
  return WEEKDAYS.filter((day) => wanted.has(day));
}

/** Phone numbers as leads give them: spaces, `-`, `.`, `(`, `)` removed, a leading `00` read as `+`; null unless E.164. */
export function normalizeLeadPhone(raw: string): string | null {
  let phone = raw.replace(/[\s\-.()]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  return /^\+[1-9]\d{6,14}$/.test(phone) ? phone : null;
}
