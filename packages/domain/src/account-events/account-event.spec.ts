import { readLastEventId } from './account-event';

describe('Last-Event-ID', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['  evt_1 ', 'evt_1'],
    ['a b', null],
    ['x'.repeat(65), null],
    ['evt\u0000', null],
  ])('%j → %j', (header, id) => {
    expect(readLastEventId(header)).toBe(id);
  });
});
