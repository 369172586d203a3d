import {
  Assistant,
  CAMPAIGN_LIMITS,
  FieldErrors,
  parallelCallsDefault,
  parallelCallsMax,
  WEEKDAYS,
  Weekday,
} from '@voiceplane/domain';
import { CampaignSettings } from './ports';

/** Campaign fields as a request sent them: absent ones take their default (create) or stay (update). */
export interface CampaignInput {
  readonly name?: string;
  readonly assistantId?: number;
  readonly timezone?: string;
  readonly maxCallsInParallel?: number;
  readonly markCompleteWhenNoLeads?: boolean;
  readonly startMinute?: number;
  readonly endMinute?: number;
  readonly allowedDays?: readonly Weekday[];
  readonly maxRetries?: number;
  readonly retryInterval?: number;
  readonly retryOnVoicemail?: boolean;
  readonly retryOnGoalIncomplete?: boolean;
  /** Null clears it. */
  readonly goalCompletionVariable?: string | null;
  readonly phoneNumberIds?: readonly number[];
  readonly windowInLeadTimezone?: boolean;
}

const END_OF_DAY = 23 * 60 + 59;

/** A new campaign's settings: sent values over the defaults (the zone: the assistant's). */
export function withDefaults(input: CampaignInput, assistant: Assistant, maxConcurrentCalls: number): CampaignSettings {
  return {
    name: input.name ?? '',
    assistantId: assistant.id,
    timezone: input.timezone ?? assistant.timezone,
    maxCallsInParallel: input.maxCallsInParallel ?? parallelCallsDefault(maxConcurrentCalls),
    markCompleteWhenNoLeads: input.markCompleteWhenNoLeads ?? true,
    startMinute: input.startMinute ?? 0,
    endMinute: input.endMinute ?? END_OF_DAY,
    allowedDays: input.allowedDays ?? WEEKDAYS,
    maxRetries: input.maxRetries ?? CAMPAIGN_LIMITS.retriesDefault,
    retryInterval: input.retryInterval ?? CAMPAIGN_LIMITS.retryIntervalDefault,
    retryOnVoicemail: input.retryOnVoicemail ?? false,
    retryOnGoalIncomplete: input.retryOnGoalIncomplete ?? false,
    goalCompletionVariable: input.goalCompletionVariable ?? null,
    phoneNumberIds: input.phoneNumberIds ?? [],
    windowInLeadTimezone: input.windowInLeadTimezone ?? false,
  };
}

/** Stored settings with the sent ones over them. */
export function merged(current: CampaignSettings, input: CampaignInput): CampaignSettings {
  const sent = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  return { ...current, ...sent } as CampaignSettings;
}

/**
 * Rules on the merged settings that need the account: the plan's parallel-call bound, the window's
 * order, the caller-ID pool's ownership. Field errors as the validation family words them.
 */
export function settingsProblems(
  settings: CampaignSettings,
  maxConcurrentCalls: number,
  ownedPhoneIds: ReadonlySet<number>,
): FieldErrors {
  const errors: Record<string, string[]> = {};
  const max = parallelCallsMax(maxConcurrentCalls);
  if (settings.maxCallsInParallel < 1 || settings.maxCallsInParallel > max) {
    errors.max_calls_in_parallel = [`The max calls in parallel must be between 1 and ${max}.`];
  }
  if (settings.endMinute <= settings.startMinute) {
    errors.allowed_hours_end_time = ['The allowed hours end time must be after the allowed hours start time.'];
  }
  settings.phoneNumberIds.forEach((id, i) => {
    if (!ownedPhoneIds.has(id)) errors[`phone_number_ids.${i}`] = [`The selected phone_number_ids.${i} is invalid.`];
  });
  if (settings.retryOnGoalIncomplete && settings.goalCompletionVariable === null) {
    errors.goal_completion_variable = [
      'The goal completion variable field is required when retry on goal incomplete is true.',
    ];
  }
  return errors;
}

/** With the goal rule on, the variable must be a boolean of the assistant's post-call schema (or `status` with evaluation). */
export function goalVariableKnown(settings: CampaignSettings, assistant: Assistant): boolean {
  if (!settings.retryOnGoalIncomplete || settings.goalCompletionVariable === null) return true;
  const name = settings.goalCompletionVariable;
  if (name === 'status' && assistant.postCallEvaluation) return true;
  return assistant.postCallSchema.some((f) => f.name === name && (f.type === 'bool' || f.type === 'boolean'));
}

export const GOAL_VARIABLE_UNKNOWN: FieldErrors = {
  goal_completion_variable: [
    "The goal completion variable must name a boolean variable of the assistant's post-call schema.",
  ],
};
