/** What a call contributes to the `{{variable}}` set of a tool request. */
export interface ToolCallSubject {
  /** Null for a chat conversation: there is no call (`call_id` is then empty). */
  readonly callId: number | null;
  readonly assistantId: number;
  readonly customerPhone: string | null;
  readonly assistantPhone: string | null;
  readonly direction: string;
  readonly channel: string;
  /** Chat-app calls only. */
  readonly conversationId: string | null;
  /** The assistant's IANA zone; dates are given in it. */
  readonly timezone: string;
  /** Input variables of the call (make_call, chat-app call, automation step). */
  readonly variables: Readonly<Record<string, unknown>>;
  readonly assistantVariables: Readonly<Record<string, unknown>>;
}

/**
 * The variable set, highest precedence last applied: the assistant's variables, the call's input
 * variables, the system variables, then `overrides` (render and test take them from the body).
 * Without a call there are no system variables: only what `overrides` gives.
 */
export function toolVariables(
  call: ToolCallSubject | null,
  now: Date,
  overrides: Readonly<Record<string, unknown>> = {},
): Map<string, string> {
  const set = new Map<string, string>();
  const put = (source: Readonly<Record<string, unknown>>) => {
    for (const key of Object.keys(source)) set.set(key, variableText(source[key]));
  };
  if (call !== null) {
    put(call.assistantVariables);
    put(call.variables);
    const zoned = zonedNow(now, call.timezone);
    put({
      call_id: call.callId,
      assistant_id: call.assistantId,
      customer_phone: call.customerPhone,
      assistant_phone: call.assistantPhone,
      direction: call.direction,
      channel: call.channel,
      conversation_id: call.conversationId,
      current_date: zoned.date,
      current_time: zoned.time,
      current_datetime: zoned.datetime,
      timezone: zoned.timezone,
    });
  }
  put(overrides);
  return set;
}

/** Scalars as text, null as empty, structures as compact JSON. */
export function variableText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface ZonedNow {
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** `HH:mm`. */
  readonly time: string;
  /** ISO 8601 with the zone's offset, seconds precision: `2026-03-01T11:15:30+01:00`. */
  readonly datetime: string;
  /** The zone used: the one asked for, or `UTC` when it is not a known IANA zone. */
  readonly timezone: string;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterFor(timezone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: timezone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      formatter = null;
    }
    formatters.set(timezone, formatter);
  }
  return formatter;
}

export function zonedNow(now: Date, timezone: string): ZonedNow {
  const known = formatterFor(timezone);
  const zone = known === null ? 'UTC' : timezone;
  const parts: Record<string, string> = {};
  for (const part of (known ?? (formatterFor('UTC') as Intl.DateTimeFormat)).formatToParts(now))
    parts[part.type] = part.value;
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}`;
  const wallClock = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMinutes = Math.round((wallClock - Math.floor(now.getTime() / 1000) * 1000) / 60_000);
  return { date, time, datetime: `${date}T${time}:${parts.second}${offsetText(offsetMinutes)}`, timezone: zone };
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
