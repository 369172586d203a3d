import { canStart, canStop } from './campaign-status';
import { normalizeLeadPhone, normalizeWeekdays, parallelCallsDefault, parallelCallsMax } from './campaign';
import { err, ok } from '../common/result';

describe('campaign status', () => {
  it.each(['draft', 'stopped', 'completed'] as const)('%s starts', (status) => {
    expect(canStart(status)).toEqual(ok('in-progress'));
  });
  it('in-progress does not start again', () => {
    expect(canStart('in-progress')).toEqual(err('already_in_progress'));
  });
  it('only a running campaign stops; a stopped one stops again without change', () => {
    expect(canStop('in-progress')).toEqual(ok({ changed: true }));
    expect(canStop('stopped')).toEqual(ok({ changed: false }));
    expect(canStop('draft')).toEqual(err('not_running'));
    expect(canStop('completed')).toEqual(err('not_running'));
  });
});

describe('campaign fields', () => {
  it('weekdays: any case, no duplicates, Monday first; unknown → null', () => {
    expect(normalizeWeekdays(['Sunday', 'MONDAY', 'monday'])).toEqual(['monday', 'sunday']);
    expect(normalizeWeekdays(['funday'])).toBeNull();
  });
  it('parallel calls follow the plan, at most 10', () => {
    expect([parallelCallsMax(50), parallelCallsMax(2), parallelCallsDefault(2), parallelCallsDefault(10)]).toEqual([
      10, 2, 2, 3,
    ]);
  });
  it.each([
    ['+1 (415) 555-1234', '+14155551234'],
    ['0049 151 2345 6789', '+4915123456789'],
    ['+49.151.234', '+49151234'],
    ['4155551234', null],
    ['+0123456789', null],
    ['+1234', null],
    ['+1415555123412345', null],
    ['abc', null],
  ])('phone %j → %j', (raw, phone) => {
    expect(normalizeLeadPhone(raw)).toBe(phone);
  });
});
