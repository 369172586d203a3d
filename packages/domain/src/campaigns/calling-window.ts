import { Weekday, WEEKDAYS } from './campaign';

/** When calls may be placed: local weekdays and minutes of the day, read in an IANA zone. */
export interface CallingWindow {
  readonly timezone: string;
  readonly days: readonly Weekday[];
  /** Minutes after local midnight; the start minute is the first dialable one. */
  readonly startMinute: number;
  /** Minutes after local midnight; the end minute is dialable to its last second. */
  readonly endMinute: number;
}

const MINUTES_PER_DAY = 24 * 60;

/** `HH:MM` or `HH:MM:SS` (seconds dropped), two-digit hours 00–23; null otherwise. */
export function parseTimeOfDay(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `HH:MM:SS`, the form campaigns are read back in. */
export function formatTimeOfDay(minute: number): string {
  const h = Math.floor(minute / 60);
  return `${String(h).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let f = formatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timezone, f);
  }
  return f;
}

/** The wall clock in `timezone` at `at`: weekday and seconds after local midnight. */
export function localTime(timezone: string, at: Date): { readonly day: Weekday; readonly second: number } {
  const parts = formatterFor(timezone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('weekday').toLowerCase() as Weekday;
  return { day, second: (Number(part('hour')) * 60 + Number(part('minute'))) * 60 + Number(part('second')) };
}

/**
 * A call may be placed when the local weekday is allowed and start ≤ local time < end + 1 minute.
 * Wall-clock reading: a local time the clock skips never occurs, a repeated one occurs twice.
 */
export function windowOpen(window: CallingWindow, at: Date): boolean {
  const local = localTime(window.timezone, at);
  if (!WEEKDAYS.includes(local.day) || !window.days.includes(local.day)) return false;
  return local.second >= window.startMinute * 60 && local.second < Math.min(window.endMinute + 1, MINUTES_PER_DAY) * 60;
}
