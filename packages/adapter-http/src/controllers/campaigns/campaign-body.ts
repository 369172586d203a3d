import {
  canonicalTimeZone,
  CAMPAIGN_LIMITS,
  FieldErrors,
  hasFieldErrors,
  normalizeWeekdays,
  parseTimeOfDay,
  WEEKDAYS,
} from '@voiceplane/domain';
import { CampaignInput } from '@voiceplane/application';
import { Arr, Bool, Id, Int, Str, validateDto } from '../../validation';

const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const weekday = (v: string) => ((WEEKDAYS as readonly string[]).includes(v.toLowerCase()) ? v.toLowerCase() : null);

/** Campaign fields; on update every field is optional and only sent ones change. */
export class CampaignBody {
  @Str({ required: true, min: 1, max: CAMPAIGN_LIMITS.nameMax, example: 'Product Demo Campaign' }) name!: string;
  @Id({ required: true, description: 'An outbound assistant of the account', example: 101 }) assistant_id!: number;
  @Str({
    max: 64,
    canonical: canonicalTimeZone,
    description: "IANA zone the window is read in; default: the assistant's",
    example: 'Europe/Berlin',
  })
  timezone?: string;
  @Int({ description: '1 … min(10, plan max_concurrent_calls); default 3', example: 3 }) max_calls_in_parallel?: number;
  @Bool({ description: 'default true' }) mark_complete_when_no_leads?: boolean;
  @Str({ pattern: TIME_PATTERN, description: 'HH:MM (or HH:MM:SS), default 00:00', example: '09:00' })
  allowed_hours_start_time?: string;
  @Str({ pattern: TIME_PATTERN, description: 'HH:MM, the minute included; default 23:59', example: '17:00' })
  allowed_hours_end_time?: string;
  @Arr({ kind: 'string', canonical: weekday }, { min: 1, description: 'monday … sunday; default all' })
  allowed_days?: string[];
  @Int({
    min: CAMPAIGN_LIMITS.retriesMin,
    max: CAMPAIGN_LIMITS.retriesMax,
    description: 'Retries after the first call; default 3',
  })
  max_retries?: number;
  @Int({
    min: CAMPAIGN_LIMITS.retryIntervalMin,
    max: CAMPAIGN_LIMITS.retryIntervalMax,
    description: 'Minutes; default 60',
  })
  retry_interval?: number;
  @Bool() retry_on_voicemail?: boolean;
  @Bool({
    description:
      "Read each contact's window in its own zone: its `timezone` variable, else its number's country when that has one zone, else the campaign's; default false",
  })
  window_in_lead_timezone?: boolean;
  @Bool() retry_on_goal_incomplete?: boolean;
  @Str({
    nullable: true,
    max: CAMPAIGN_LIMITS.goalVariableMax,
    description: "A boolean of the assistant's post_call_schema (or status)",
  })
  goal_completion_variable?: string | null;
  @Arr({ kind: 'id' }, { max: CAMPAIGN_LIMITS.phoneNumbersMax, description: 'Caller-ID pool, used in turn' })
  phone_number_ids?: number[];
}

/** The body as campaign settings, or the family's field errors (duplicate pool ids included). */
export function campaignInput(
  input: unknown,
  partial: boolean,
): { ok: true; value: CampaignInput } | { ok: false; errors: FieldErrors } {
  const shaped = validateDto(CampaignBody, input, { partial });
  if (!shaped.ok) return shaped;
  const b = shaped.value;
  const errors: FieldErrors = {};
  const ids = b.phone_number_ids;
  ids?.forEach((id, i) => {
    if (ids.indexOf(id) !== i)
      errors[`phone_number_ids.${i}`] = [`The phone_number_ids.${i} field has a duplicate value.`];
  });
  if (hasFieldErrors(errors)) return { ok: false, errors };
  return {
    ok: true,
    value: {
      name: b.name,
      assistantId: b.assistant_id,
      timezone: b.timezone,
      maxCallsInParallel: b.max_calls_in_parallel,
      markCompleteWhenNoLeads: b.mark_complete_when_no_leads,
      startMinute:
        b.allowed_hours_start_time === undefined
          ? undefined
          : (parseTimeOfDay(b.allowed_hours_start_time) ?? undefined),
      endMinute:
        b.allowed_hours_end_time === undefined ? undefined : (parseTimeOfDay(b.allowed_hours_end_time) ?? undefined),
      allowedDays: b.allowed_days === undefined ? undefined : (normalizeWeekdays(b.allowed_days) ?? undefined),
      maxRetries: b.max_retries,
      retryInterval: b.retry_interval,
      retryOnVoicemail: b.retry_on_voicemail,
      windowInLeadTimezone: b.window_in_lead_timezone,
      retryOnGoalIncomplete: b.retry_on_goal_incomplete,
      goalCompletionVariable: b.goal_completion_variable,
      phoneNumberIds: ids,
    },
  };
}

const ACTIONS = ['start', 'stop'] as const;

export class CampaignStatusBody {
  @Id({ required: true, example: 7 }) campaign_id!: number;
  @Str({ required: true, description: '`start` or `stop` (any case)', example: 'start' }) action!: string;
}

/** The action after trimming, in lower case; null when it is neither. */
export function campaignAction(action: string): (typeof ACTIONS)[number] | null {
  const a = action.trim().toLowerCase();
  return (ACTIONS as readonly string[]).includes(a) ? (a as (typeof ACTIONS)[number]) : null;
}
