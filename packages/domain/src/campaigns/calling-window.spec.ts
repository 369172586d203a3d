import { WEEKDAYS } from './campaign';
import { CallingWindow, formatTimeOfDay, parseTimeOfDay, windowOpen } from './calling-window';

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
const berlin: CallingWindow = { timezone: 'Europe/Berlin', days: weekdays, startMinute: 9 * 60, endMinute: 17 * 60 };
const newYork: CallingWindow = { ...berlin, timezone: 'America/New_York' };
const at = (iso: string) => new Date(iso);

describe('calling window', () => {
  it.each([
    ['2026-03-02T07:59:59Z', false, 'Monday 08:59:59 in Berlin (UTC+1), before the start'],
    ['2026-03-02T08:00:00Z', true, 'Monday 09:00:00, the start minute'],
    ['2026-03-02T16:00:00Z', true, 'Monday 17:00:00, the end minute is dialable'],
    ['2026-03-02T16:00:59Z', true, 'the last second of the end minute'],
    ['2026-03-02T16:01:00Z', false, 'after the end minute'],
    ['2026-03-07T10:00:00Z', false, 'Saturday'],
  ])('east of UTC: %s → %s (%s)', (iso, open) => {
    expect(windowOpen(berlin, at(iso))).toBe(open);
  });

  it.each([
    ['2026-03-02T13:59:59Z', false, 'Monday 08:59:59 in New York (UTC−5)'],
    ['2026-03-02T14:00:00Z', true, 'Monday 09:00'],
    ['2026-03-02T22:00:59Z', true, 'Monday 17:00:59'],
    ['2026-03-02T22:01:00Z', false, 'Monday 17:01'],
  ])('west of UTC: %s → %s (%s)', (iso, open) => {
    expect(windowOpen(newYork, at(iso))).toBe(open);
  });

  it('reads the weekday in the zone, not in UTC', () => {
    const mondayEvening: CallingWindow = {
      timezone: 'America/New_York',
      days: ['monday'],
      startMinute: 20 * 60,
      endMinute: 23 * 60 + 59,
    };
    // Tuesday 02:00 UTC is Monday 21:00 in New York.
    expect(windowOpen(mondayEvening, at('2026-03-03T02:00:00Z'))).toBe(true);
    expect(windowOpen({ ...mondayEvening, timezone: 'UTC' }, at('2026-03-03T02:00:00Z'))).toBe(false);
    // Monday 23:30 UTC is Tuesday 00:30 in Berlin.
    expect(
      windowOpen({ ...mondayEvening, timezone: 'Europe/Berlin', startMinute: 0 }, at('2026-03-02T23:30:00Z')),
    ).toBe(false);
  });

  it('the default 00:00–23:59 on every day is the whole week', () => {
    const always: CallingWindow = {
      timezone: 'Pacific/Auckland',
      days: WEEKDAYS,
      startMinute: 0,
      endMinute: 23 * 60 + 59,
    };
    for (let h = 0; h < 24 * 7; h += 5)
      expect(windowOpen(always, new Date(Date.UTC(2026, 2, 2, h, 59, 59)))).toBe(true);
  });

  describe('daylight saving', () => {
    const sundayNight = (timezone: string, startMinute: number): CallingWindow => ({
      timezone,
      days: ['sunday'],
      startMinute,
      endMinute: startMinute + 59,
    });

    it('spring forward in Berlin: the skipped hour 02:00–02:59 never opens; 09:00 moves to 07:00 UTC', () => {
      const skipped = sundayNight('Europe/Berlin', 2 * 60);
      expect(windowOpen(skipped, at('2026-03-29T00:59:59Z'))).toBe(false); // 01:59:59 CET
      expect(windowOpen(skipped, at('2026-03-29T01:00:00Z'))).toBe(false); // 03:00:00 CEST
      expect(windowOpen(berlin, at('2026-03-30T06:59:59Z'))).toBe(false);
      expect(windowOpen(berlin, at('2026-03-30T07:00:00Z'))).toBe(true);
    });

    it('fall back in Berlin: the repeated hour 02:00–02:59 opens twice', () => {
      const repeated = sundayNight('Europe/Berlin', 2 * 60);
      expect(windowOpen(repeated, at('2026-10-25T00:30:00Z'))).toBe(true); // 02:30 CEST
      expect(windowOpen(repeated, at('2026-10-25T01:30:00Z'))).toBe(true); // 02:30 CET
      expect(windowOpen(repeated, at('2026-10-25T02:00:00Z'))).toBe(false); // 03:00 CET
    });

    it('spring forward in New York: 02:00–02:59 is skipped', () => {
      const skipped = sundayNight('America/New_York', 2 * 60);
      expect(windowOpen(skipped, at('2026-03-08T06:59:59Z'))).toBe(false); // 01:59:59 EST
      expect(windowOpen(skipped, at('2026-03-08T07:00:00Z'))).toBe(false); // 03:00 EDT
      expect(windowOpen(newYork, at('2026-03-09T12:59:59Z'))).toBe(false);
      expect(windowOpen(newYork, at('2026-03-09T13:00:00Z'))).toBe(true); // 09:00 EDT
    });

    it('fall back in New York: 01:00–01:59 opens twice', () => {
      const repeated = sundayNight('America/New_York', 60);
      expect(windowOpen(repeated, at('2026-11-01T05:30:00Z'))).toBe(true); // 01:30 EDT
      expect(windowOpen(repeated, at('2026-11-01T06:30:00Z'))).toBe(true); // 01:30 EST
      expect(windowOpen(repeated, at('2026-11-01T07:00:00Z'))).toBe(false); // 02:00 EST
    });
  });

  it.each([
    ['09:00', 540],
    ['09:00:59', 540],
    ['23:59', 1439],
    ['00:00:00', 0],
    ['9:00', null],
    ['24:00', null],
    ['12:60', null],
    ['12:00:60', null],
    ['12:00 ', null],
    ['', null],
  ])('parses %j as %j', (text, minute) => {
    expect(parseTimeOfDay(text)).toBe(minute);
  });

  it('reads back with seconds', () => {
    expect(formatTimeOfDay(540)).toBe('09:00:00');
    expect(formatTimeOfDay(1439)).toBe('23:59:00');
  });
});
