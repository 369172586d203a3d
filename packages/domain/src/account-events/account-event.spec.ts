import { AccountEvent, appendToBacklog, eventsAfter, mayOpenStream, readLastEventId } from './account-event';

const event = (id: string, at: number): AccountEvent => ({ id, type: 'message.received', userId: 1, at, data: {} });
const limits = { size: 3, maxAgeMs: 1_000 };

describe('account event backlog', () => {
  it('keeps the newest events up to its size, oldest first', () => {
    let backlog: AccountEvent[] = [];
    for (const id of ['a', 'b', 'c', 'd']) backlog = appendToBacklog(backlog, event(id, 100), limits, 100);
    expect(backlog.map((e) => e.id)).toEqual(['b', 'c', 'd']);
  });

  it('drops events older than its age', () => {
    const backlog = appendToBacklog([event('a', 0), event('b', 900)], event('c', 1_500), limits, 1_500);
    expect(backlog.map((e) => e.id)).toEqual(['b', 'c']);
  });

  it('takes an event it already holds once (a redelivery)', () => {
    const backlog = appendToBacklog([event('a', 0)], event('a', 0), limits, 0);
    expect(backlog.map((e) => e.id)).toEqual(['a']);
  });

  it('replays what came after the last event seen', () => {
    const backlog = [event('a', 0), event('b', 0), event('c', 0)];
    expect(eventsAfter(backlog, 'a')).toEqual({ kind: 'after', events: [backlog[1], backlog[2]] });
    expect(eventsAfter(backlog, 'c')).toEqual({ kind: 'after', events: [] });
  });

  it('says when the last event seen is no longer held', () => {
    expect(eventsAfter([event('b', 0)], 'a')).toEqual({ kind: 'unknown' });
  });
});

describe('stream limit', () => {
  it('refuses a stream past the maximum', () => {
    expect(mayOpenStream(4, 5).ok).toBe(true);
    expect(mayOpenStream(5, 5)).toEqual({ ok: false, error: 'too_many_streams' });
  });
});

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
