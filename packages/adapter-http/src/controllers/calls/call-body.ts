import {
  CALL_CHANNELS,
  CALL_DIRECTIONS,
  CALL_STATUSES,
  CallChannel,
  CallDirection,
  CallOutcome,
  CallStatus,
  E164_PATTERN,
  FieldErrors,
  hasFieldErrors,
  TERMINAL_STATUSES,
  TerminalCallStatus,
  TranscriptItem,
} from '@voiceplane/domain';
import { normalizeVariables } from '../assistants/assistant-messages';
import { CallFilter, RuntimeEvent } from '@voiceplane/application';
import { Arr, Id, Int, Obj, PageQuery, parseTimestamp, Str, validateDto, ListFilters } from '../../validation';
import { refuse, validationAnswer } from '../../pipeline/answers';

const RUNTIME_EVENT_TYPES = ['ringing', 'answered', 'transcript', 'ended'] as const;
const TRANSCRIPT_ROLES = ['assistant', 'customer'] as const;
const PHONE_TEXT_MAX = 64;

export class MakeCallBody {
  @Id({ required: true, example: 101 }) assistant_id!: number;
  @Str({ required: true, description: 'E.164', example: '+14155551234' }) phone_number!: string;
  @Obj({ description: "≤ 50 keys, values strings ≤ 1000 (scalars stringified); merged over the assistant's variables" })
  variables?: Record<string, unknown>;
}

export interface MakeCallInput {
  readonly assistantId: number;
  readonly phoneNumber: string;
  readonly variables: Record<string, string>;
}

/** Variables are judged once the rest of the body has the right shape (the order clients see errors in). */
class CallVariablesBody {
  @Obj({ entries: normalizeVariables }) variables?: Record<string, string>;
}

/** A number that is not E.164 is a 400 of its own, after every 422. */
class CallPhoneBody {
  @Str({ pattern: E164_PATTERN }) phone_number?: string;
}

/** 422 for shapes, then for variables, then 400 for a phone number that is not E.164. */
export function parseMakeCall(input: unknown, invalidPhone: () => never): MakeCallInput {
  const shaped = validateDto(MakeCallBody, input);
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  const variables = validateDto(CallVariablesBody, { variables: shaped.value.variables });
  if (!variables.ok) refuse(validationAnswer(variables.errors));
  if (!validateDto(CallPhoneBody, { phone_number: shaped.value.phone_number }).ok) invalidPhone();
  return {
    assistantId: shaped.value.assistant_id,
    phoneNumber: shaped.value.phone_number,
    variables: variables.value.variables ?? {},
  };
}

/** Famulor's `type` of a call; `web` (browser calls) never matches, voiceplane has none. */
const CALL_TYPES = ['inbound', 'outbound', 'web'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const E164 = { pattern: E164_PATTERN, messages: { pattern: 'The {field} must be a valid E.164 phone number.' } };

@ListFilters()
export class CallListQuery extends PageQuery {
  @Id() assistant_id?: number;
  @Str({ enum: CALL_STATUSES }) status?: CallStatus;
  @Str({ enum: CALL_DIRECTIONS }) direction?: CallDirection;
  @Str({ enum: CALL_TYPES, description: "Famulor's name of direction; web matches no call" })
  type?: (typeof CALL_TYPES)[number];
  @Str({ enum: CALL_CHANNELS }) channel?: CallChannel;
  @Str({ ...E164 }) customer_phone?: string;
  @Str({ ...E164, description: "Famulor's name of customer_phone" }) phone_number?: string;
  @Str({ max: 40, description: 'calls placed by this automation run (run_…)' }) automation_run_id?: string;
  @Id({ description: 'calls placed by this campaign' }) campaign_id?: number;
  @Str({ timestamp: true, description: 'ISO 8601; calls created at or after' }) from?: string;
  @Str({ timestamp: true, description: 'ISO 8601; calls created at or before' }) to?: string;
  @Str({
    pattern: DAY,
    timestamp: true,
    messages: { pattern: 'The {field} does not match the format Y-m-d.' },
    description: 'YYYY-MM-DD (UTC); calls created on or after that day',
  })
  date_from?: string;
  @Str({
    pattern: DAY,
    timestamp: true,
    messages: { pattern: 'The {field} does not match the format Y-m-d.' },
    description: 'YYYY-MM-DD (UTC); calls created on or before that day',
  })
  date_to?: string;
}

/** The list's filters, each told once: Famulor's and voiceplane's names of one filter must agree. */
export interface CallListInput {
  readonly query: CallListQuery;
  readonly filter: CallFilter;
  /** `type=web`: nothing can match. */
  readonly matchesNothing: boolean;
}

/** A validated timestamp field as a Date. */
function timestampOf(value: string | undefined): Date | undefined {
  return value === undefined ? undefined : (parseTimestamp(value) ?? undefined);
}

const DAY_MS = 86_400_000;

/** The later of two lower bounds, the earlier of two upper ones. */
const later = (a?: Date, b?: Date) => (a && b ? (a > b ? a : b) : (a ?? b));
const earlier = (a?: Date, b?: Date) => (a && b ? (a < b ? a : b) : (a ?? b));

export function parseCallList(input: unknown): CallListInput {
  const shaped = validateDto(CallListQuery, input ?? {});
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  const q = shaped.value;
  const errors: FieldErrors = {};
  const type = q.type === 'web' ? undefined : q.type;
  if (type && q.direction && type !== q.direction) errors.type = ['The type must match the direction.'];
  if (q.phone_number && q.customer_phone && q.phone_number !== q.customer_phone)
    errors.phone_number = ['The phone number must match the customer phone.'];
  if (hasFieldErrors(errors)) refuse(validationAnswer(errors));
  const dayEnd = timestampOf(q.date_to);
  const filter: CallFilter = {
    assistantId: q.assistant_id,
    status: q.status,
    direction: q.direction ?? type,
    channel: q.channel,
    customerPhone: q.customer_phone ?? q.phone_number,
    automationRunId: q.automation_run_id,
    campaignId: q.campaign_id,
    from: later(timestampOf(q.from), timestampOf(q.date_from)),
    to: earlier(timestampOf(q.to), dayEnd && new Date(dayEnd.getTime() + DAY_MS - 1)),
  };
  return { query: q, filter, matchesNothing: q.type === 'web' };
}

export class TranscriptItemBody {
  @Str({ required: true, enum: TRANSCRIPT_ROLES }) role!: TranscriptItem['role'];
  @Str({ required: true, trim: false, max: 20_000 }) content!: string;
  @Str({ description: 'ISO 8601; default: when the event happened' }) at?: string;
}

export class RuntimeInboundBody {
  @Str({ required: true, max: PHONE_TEXT_MAX, description: 'Dialled number or extension' }) to!: string;
  @Str({ required: true, max: PHONE_TEXT_MAX, description: 'Caller number' }) from!: string;
  @Str({ max: 64, description: 'Provider inbound trunk id (matched against inbound_trunk_id)' }) trunk_id?: string;
  @Str({ max: 128, description: 'A repeated value returns the same call' }) provider_call_id?: string;
}

export class RuntimeEventBody {
  @Str({ required: true, max: 128, description: 'Unique per call; a repeat returns the first answer' })
  event_id!: string;
  @Str({ required: true, enum: RUNTIME_EVENT_TYPES }) type!: (typeof RUNTIME_EVENT_TYPES)[number];
  @Str({ timestamp: true, description: 'ISO 8601; default: receipt time' }) occurred_at?: string;
  @Obj({
    description:
      'transcript → {items}; ended → {status, duration?, recording_url?, transcript?, extracted_variables?, ended_reason?}',
  })
  data?: Record<string, unknown>;
}

class TranscriptDataBody {
  @Arr(TranscriptItemBody, { required: true }) items!: TranscriptItemBody[];
}

/** The call end as a runtime or the sandbox `finish` describes it. */
export class CallEndBody {
  @Str({ required: true, enum: TERMINAL_STATUSES }) status!: TerminalCallStatus;
  @Int({ min: 0, description: 'Seconds' }) duration?: number;
  @Str({ nullable: true, max: 2048, url: true }) recording_url?: string | null;
  @Arr(TranscriptItemBody) transcript?: TranscriptItemBody[];
  @Obj() extracted_variables?: Record<string, unknown>;
}

class EndedDataBody extends CallEndBody {
  @Str({ nullable: true, max: 255 }) ended_reason?: string | null;
}

/** An item's time is judged once the whole transcript has the right shape (the order clients see errors in). */
class TranscriptItemTime {
  @Str({ timestamp: true }) at?: string;
}

/** Transcript items with their times normalised (a missing `at` is `defaultAt`); errors are keyed `{path}.{i}.at`. */
export function transcriptItems(items: readonly TranscriptItemBody[], path: string, defaultAt: Date): TranscriptItem[] {
  const errors: FieldErrors = {};
  items.forEach((item, i) => {
    const time = validateDto(TranscriptItemTime, item, {}, `${path}.${i}.`);
    if (!time.ok) Object.assign(errors, time.errors);
  });
  if (hasFieldErrors(errors)) refuse(validationAnswer(errors));
  return items.map((item) => ({
    role: item.role,
    content: item.content,
    at: (timestampOf(item.at) ?? defaultAt).toISOString(),
  }));
}

export function outcomeOf(body: CallEndBody & { ended_reason?: string | null }, prefix: string, at: Date): CallOutcome {
  return {
    status: body.status,
    duration: body.duration,
    recordingUrl: body.recording_url,
    transcript: body.transcript === undefined ? undefined : transcriptItems(body.transcript, `${prefix}transcript`, at),
    extractedVariables: body.extracted_variables,
    endedReason: body.ended_reason,
  };
}

export interface RuntimeEventInput {
  readonly eventId: string;
  readonly occurredAt: Date | null;
  readonly event: RuntimeEvent;
}

/** The lifecycle event body, with its type-specific `data`. */
export function parseRuntimeEvent(input: unknown, now: Date): RuntimeEventInput {
  const shaped = validateDto(RuntimeEventBody, input);
  if (!shaped.ok) refuse(validationAnswer(shaped.errors));
  const body = shaped.value;
  const occurredAt = timestampOf(body.occurred_at) ?? null;
  const at = occurredAt ?? now;
  let event: RuntimeEvent;
  if (body.type === 'ringing' || body.type === 'answered') event = { type: body.type };
  else if (body.type === 'transcript') {
    const data = validateDto(TranscriptDataBody, body.data ?? {}, {}, 'data.');
    if (!data.ok) refuse(validationAnswer(data.errors));
    event = { type: 'transcript', items: transcriptItems(data.value.items, 'data.items', at) };
  } else {
    const data = validateDto(EndedDataBody, body.data ?? {}, {}, 'data.');
    if (!data.ok) refuse(validationAnswer(data.errors));
    event = { type: 'ended', outcome: outcomeOf(data.value, 'data.', at) };
  }
  return { eventId: body.event_id, occurredAt, event };
}
