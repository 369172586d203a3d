import {
  addFieldError, CALL_CHANNELS, CALL_DIRECTIONS, CALL_STATUSES, CallChannel, CallDirection, CallOutcome, CallStatus, E164_PATTERN,
  FieldErrors, hasFieldErrors, TERMINAL_STATUSES, TerminalCallStatus, TranscriptItem,
} from '@voiceplane/domain';
import { normalizeVariables } from '../assistants/assistant-messages';
import { RuntimeEvent } from '@voiceplane/application';
import { Arr, Id, Int, Obj, PageQuery, Str, validateDto } from '../../validation';
import { failValidation } from '../../pipeline/responses';

const RUNTIME_EVENT_TYPES = ['ringing', 'answered', 'transcript', 'ended'] as const;
const TRANSCRIPT_ROLES = ['assistant', 'customer'] as const;
const PHONE_TEXT_MAX = 64;

// ISO 8601 with a UTC offset (or `Z`); a bare date means midnight UTC.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?))?$/i;

/** A timestamp as CONTRACT §1.4 accepts it, or null. */
export function parseTimestamp(raw: string): Date | null {
  if (!ISO_TIMESTAMP.test(raw)) return null;
  const at = new Date(raw.length === 10 ? `${raw}T00:00:00Z` : raw);
  return Number.isNaN(at.getTime()) ? null : at;
}

function checkTimestamp(errors: FieldErrors, field: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const at = parseTimestamp(raw);
  if (at === null) addFieldError(errors, field, `The ${field.includes('.') ? field : field.replace(/_/g, ' ')} must be a valid date.`);
  return at ?? undefined;
}

export class MakeCallBody {
  @Id({ required: true, example: 101 }) assistant_id!: number;
  @Str({ required: true, description: 'E.164', example: '+14155551234' }) phone_number!: string;
  @Obj({ description: '≤ 50 keys, values strings ≤ 1000 (scalars stringified); merged over the assistant\'s variables' }) variables?: Record<string, unknown>;
}

export interface MakeCallInput {
  readonly assistantId: number;
  readonly phoneNumber: string;
  readonly variables: Record<string, string>;
}

/** 422 for shapes and variables, then 400 for a phone number that is not E.164 (CONTRACT §7.2 order). */
export function parseMakeCall(input: unknown, invalidPhone: () => never): MakeCallInput {
  const shaped = validateDto(MakeCallBody, input ?? {});
  const errors: FieldErrors = shaped.ok ? {} : { ...shaped.errors };
  let variables: Record<string, string> = {};
  const rawVariables = shaped.ok ? shaped.value.variables : undefined;
  if (rawVariables !== undefined) {
    const normalized = normalizeVariables(rawVariables);
    if (normalized.ok) variables = normalized.value;
    else for (const [k, msgs] of Object.entries(normalized.error)) for (const m of msgs) addFieldError(errors, k, m);
  }
  if (!shaped.ok || hasFieldErrors(errors)) failValidation(errors);
  if (!E164_PATTERN.test(shaped.value.phone_number)) invalidPhone();
  return { assistantId: shaped.value.assistant_id, phoneNumber: shaped.value.phone_number, variables };
}

export class CallListQuery extends PageQuery {
  @Id() assistant_id?: number;
  @Str({ enum: CALL_STATUSES }) status?: CallStatus;
  @Str({ enum: CALL_DIRECTIONS }) direction?: CallDirection;
  @Str({ enum: CALL_CHANNELS }) channel?: CallChannel;
  @Str({ pattern: E164_PATTERN, messages: { pattern: 'The {field} must be a valid E.164 phone number.' } }) customer_phone?: string;
  @Str({ description: 'ISO 8601; calls created at or after' }) from?: string;
  @Str({ description: 'ISO 8601; calls created at or before' }) to?: string;
}

export interface CallListInput {
  readonly query: CallListQuery;
  readonly from?: Date;
  readonly to?: Date;
}

export function parseCallList(input: unknown): CallListInput {
  const shaped = validateDto(CallListQuery, input ?? {});
  const errors: FieldErrors = shaped.ok ? {} : { ...shaped.errors };
  // Bounds are checked even when other parameters failed, so every error is reported at once.
  const values = (shaped.ok ? shaped.value : input ?? {}) as { from?: unknown; to?: unknown };
  const bound = (key: 'from' | 'to') => {
    const raw = values[key];
    return typeof raw === 'string' && raw.trim() !== '' && !errors[key] ? checkTimestamp(errors, key, raw.trim()) : undefined;
  };
  const from = bound('from');
  const to = bound('to');
  if (!shaped.ok || hasFieldErrors(errors)) failValidation(errors);
  return { query: shaped.value, from, to };
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
  @Str({ required: true, max: 128, description: 'Unique per call; a repeat returns the first answer' }) event_id!: string;
  @Str({ required: true, enum: RUNTIME_EVENT_TYPES }) type!: (typeof RUNTIME_EVENT_TYPES)[number];
  @Str({ description: 'ISO 8601; default: receipt time' }) occurred_at?: string;
  @Obj({ description: 'transcript → {items}; ended → {status, duration?, recording_url?, transcript?, extracted_variables?, ended_reason?}' }) data?: Record<string, unknown>;
}

class TranscriptDataBody {
  @Arr(TranscriptItemBody, { required: true }) items!: TranscriptItemBody[];
}

/** The call end as a runtime or S9 describes it. */
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

/** Transcript items with their times normalised (a missing `at` is `defaultAt`). */
export function transcriptItems(errors: FieldErrors, prefix: string, items: readonly TranscriptItemBody[], defaultAt: Date): TranscriptItem[] {
  return items.map((item, i) => {
    const at = item.at === undefined ? defaultAt : checkTimestamp(errors, `${prefix}.${i}.at`, item.at) ?? defaultAt;
    return { role: item.role, content: item.content, at: at.toISOString() };
  });
}

export function outcomeOf(errors: FieldErrors, body: CallEndBody & { ended_reason?: string | null }, prefix: string, at: Date): CallOutcome {
  return {
    status: body.status,
    duration: body.duration,
    recordingUrl: body.recording_url,
    transcript: body.transcript === undefined ? undefined : transcriptItems(errors, `${prefix}transcript`, body.transcript, at),
    extractedVariables: body.extracted_variables,
    endedReason: body.ended_reason,
  };
}

export interface RuntimeEventInput {
  readonly eventId: string;
  readonly occurredAt: Date | null;
  readonly event: RuntimeEvent;
}

/** The lifecycle event body of CONTRACT §7.5, with its type-specific `data`. */
export function parseRuntimeEvent(input: unknown, now: Date): RuntimeEventInput {
  const shaped = validateDto(RuntimeEventBody, input ?? {});
  const errors: FieldErrors = shaped.ok ? {} : { ...shaped.errors };
  const rawAt = (shaped.ok ? shaped.value : (input ?? {}) as { occurred_at?: unknown }).occurred_at;
  const occurredAt = typeof rawAt === 'string' && !errors.occurred_at ? checkTimestamp(errors, 'occurred_at', rawAt.trim()) ?? null : null;
  if (!shaped.ok || hasFieldErrors(errors)) failValidation(errors);
  const body = shaped.value;
  const at = occurredAt ?? now;
  let event: RuntimeEvent;
  if (body.type === 'ringing' || body.type === 'answered') event = { type: body.type };
  else if (body.type === 'transcript') {
    const data = validateDto(TranscriptDataBody, body.data ?? {}, {}, 'data.');
    if (!data.ok) failValidation(data.errors);
    event = { type: 'transcript', items: transcriptItems(errors, 'data.items', data.value.items, at) };
  } else {
    const data = validateDto(EndedDataBody, body.data ?? {}, {}, 'data.');
    if (!data.ok) failValidation(data.errors);
    event = { type: 'ended', outcome: outcomeOf(errors, data.value, 'data.', at) };
  }
  if (hasFieldErrors(errors)) failValidation(errors);
  return { eventId: body.event_id, occurredAt, event };
}
