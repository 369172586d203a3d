import { windowOpen } from './calling-window';
import { WEEKDAYS } from './campaign';
import { leadTimezone } from './lead-timezone';

describe("a lead's own zone", () => {
  it.each([
    [{ timezone: 'asia/tokyo' }, '+4915112345678', 'Asia/Tokyo'],
    [{ timezone: ' Europe/Lisbon ' }, '+14155551234', 'Europe/Lisbon'],
    [{ timezone: 'Mars/Olympus' }, '+4915112345678', 'Europe/Berlin'],
    [{ timezone: '+02:00' }, '+33612345678', 'Europe/Paris'],
    [{}, '+442071838750', 'Europe/London'],
    [{}, '+14155551234', null],
    [{}, '+61291234567', null],
    [{}, '+351912345678', null],
    [{}, '+999123456789', null],
  ])('variables %j and %s read in %s (null: the campaign zone)', (variables, phone, zone) => {
    expect(leadTimezone(variables, phone)).toBe(zone);
  });
});

describe('a window read in the lead zone across daylight saving', () => {
  // Berlin moves from UTC+1 to UTC+2 on Sunday 28 March 2027 and back on Sunday 31 October 2027.
  const zone = leadTimezone({}, '+4930901820') as string;
  const window = { timezone: zone, days: WEEKDAYS, startMinute: 9 * 60, endMinute: 17 * 60 };
  it.each([
    ['2027-03-26T07:59:59Z', false],
    ['2027-03-26T08:00:00Z', true],
    ['2027-03-29T06:59:59Z', false],
    ['2027-03-29T07:00:00Z', true],
    ['2027-03-29T15:00:59Z', true],
    ['2027-03-29T15:01:00Z', false],
    ['2027-11-01T07:59:59Z', false],
    ['2027-11-01T08:00:00Z', true],
  ])('%s: %s', (at, open) => {
    expect(zone).toBe('Europe/Berlin');
    expect(windowOpen(window, new Date(at))).toBe(open);
  });
});
