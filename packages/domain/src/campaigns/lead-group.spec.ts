import { applyAttempt, blacklistContact, GroupChange, LeadGroup, nextContact } from './lead-group';
import { LeadStatus } from './campaign';

const end = new Date('2026-03-02T10:00:00Z');
const rules = { maxRetries: 2, retryIntervalMinutes: 60 };

/** Applies a change to the group, as the repository would. */
function applied(group: LeadGroup, change: GroupChange): LeadGroup {
  return {
    roundsDone: change.roundsDone,
    contacts: group.contacts.map((c) => ({
      ...c,
      status: change.statuses.get(c.id) ?? c.status,
      attempts: change.attempts.get(c.id) ?? c.attempts,
    })),
  };
}

/** The dialer's view: `rescheduled` contacts become `scheduled` once the round is due. */
const due = (group: LeadGroup): LeadGroup => ({
  ...group,
  contacts: group.contacts.map((c) => (c.status === 'rescheduled' ? { ...c, status: 'scheduled' as LeadStatus } : c)),
});

const statuses = (group: LeadGroup) => group.contacts.map((c) => c.status);

describe('lead group rounds', () => {
  const alone: LeadGroup = { roundsDone: 0, contacts: [{ id: 1, status: 'processing', attempts: 0 }] };

  it('a lead alone is called 1 + max_retries times, then reaches its maximum', () => {
    let group = alone;
    const changes: GroupChange[] = [];
    for (let call = 1; call <= 3; call++) {
      const change = applyAttempt(group, 1, 'failed', end, rules);
      changes.push(change);
      group = applied(group, change);
      if (call < 3) group = { ...due(group), contacts: [{ ...due(group).contacts[0], status: 'processing' }] };
    }
    expect(
      changes.map((c) => [c.statuses.get(1), c.roundsDone, c.nextAttemptAt?.toISOString() ?? null, c.finished]),
    ).toEqual([
      ['rescheduled', 1, '2026-03-02T11:00:00.000Z', false],
      ['rescheduled', 2, '2026-03-02T11:00:00.000Z', false],
      ['reached-max-retries', 3, null, true],
    ]);
    expect(group.contacts[0].attempts).toBe(3);
  });

  it('max_retries 1 allows two calls', () => {
    const first = applied(alone, applyAttempt(alone, 1, 'failed', end, { ...rules, maxRetries: 1 }));
    const second = applyAttempt(
      { ...first, contacts: [{ ...first.contacts[0], status: 'processing' }] },
      1,
      'failed',
      end,
      { ...rules, maxRetries: 1 },
    );
    expect(second.statuses.get(1)).toBe('reached-max-retries');
  });

  it('a success completes the whole group', () => {
    const group: LeadGroup = {
      roundsDone: 1,
      contacts: [
        { id: 1, status: 'rescheduled', attempts: 2 },
        { id: 2, status: 'processing', attempts: 1 },
        { id: 3, status: 'scheduled', attempts: 1 },
      ],
    };
    const change = applyAttempt(group, 2, 'success', end, rules);
    expect(statuses(applied(group, change))).toEqual(['completed', 'completed', 'completed']);
    expect(change.finished).toBe(true);
    expect(change.attempts).toEqual(new Map([[2, 2]]));
  });

  it('rounds go through two secondary contacts in order, then wait for the retry interval', () => {
    let group: LeadGroup = {
      roundsDone: 0,
      contacts: [
        { id: 1, status: 'created', attempts: 0 },
        { id: 2, status: 'created', attempts: 0 },
        { id: 3, status: 'created', attempts: 0 },
      ],
    };
    const calls: number[] = [];
    for (let n = 0; n < 20; n++) {
      const next = nextContact(group);
      if (next === null) {
        if (group.contacts.every((c) => c.status === 'rescheduled')) {
          group = due(group);
          continue;
        }
        break;
      }
      calls.push(next.id);
      group = {
        ...group,
        contacts: group.contacts.map((c) => (c.id === next.id ? { ...c, status: 'processing' } : c)),
      };
      expect(nextContact(group)).toBeNull();
      const change = applyAttempt(group, next.id, 'failed', end, rules);
      group = applied(group, change);
    }
    expect(calls).toEqual([1, 2, 3, 1, 2, 3, 1, 2, 3]);
    expect(statuses(group)).toEqual(['reached-max-retries', 'reached-max-retries', 'reached-max-retries']);
    expect(group.contacts.map((c) => c.attempts)).toEqual([3, 3, 3]);
  });

  it('a failure with another contact of the round still due leaves it due at once, with no interval', () => {
    const group: LeadGroup = {
      roundsDone: 0,
      contacts: [
        { id: 1, status: 'processing', attempts: 0 },
        { id: 2, status: 'created', attempts: 0 },
      ],
    };
    const change = applyAttempt(group, 1, 'failed', end, rules);
    expect(change).toEqual({
      statuses: new Map([[1, 'rescheduled']]),
      attempts: new Map([[1, 1]]),
      roundsDone: 0,
      nextAttemptAt: null,
      finished: false,
    });
    expect(nextContact(applied(group, change))?.id).toBe(2);
  });

  it('contacts closed by hand are skipped and keep their status', () => {
    const group: LeadGroup = {
      roundsDone: 2,
      contacts: [
        { id: 1, status: 'processing', attempts: 2 },
        { id: 2, status: 'completed', attempts: 0 },
      ],
    };
    const change = applyAttempt(group, 1, 'failed', end, rules);
    expect(statuses(applied(group, change))).toEqual(['reached-max-retries', 'completed']);
  });
});

describe('a due contact on the do-not-call list', () => {
  it('is closed without an attempt; the next contact of the round is due at once', () => {
    const group: LeadGroup = {
      roundsDone: 0,
      contacts: [
        { id: 1, status: 'created', attempts: 0 },
        { id: 2, status: 'created', attempts: 0 },
      ],
    };
    const change = blacklistContact(group, 1, end, rules);
    expect([...change.statuses]).toEqual([[1, 'blacklisted']]);
    expect(change.attempts.size).toBe(0);
    expect(nextContact(applied(group, change))?.id).toBe(2);
  });

  it("ends the round when it was the round's last due contact: the others wait for the next round", () => {
    const group: LeadGroup = {
      roundsDone: 0,
      contacts: [
        { id: 1, status: 'rescheduled', attempts: 1 },
        { id: 2, status: 'scheduled', attempts: 0 },
      ],
    };
    const change = blacklistContact(group, 2, end, rules);
    expect(statuses(applied(group, change))).toEqual(['rescheduled', 'blacklisted']);
    expect(change).toMatchObject({ roundsDone: 1, nextAttemptAt: new Date('2026-03-02T11:00:00Z'), finished: false });
  });

  it('leaves nothing pending when it was the only open contact', () => {
    const group: LeadGroup = { roundsDone: 0, contacts: [{ id: 1, status: 'created', attempts: 0 }] };
    const change = blacklistContact(group, 1, end, rules);
    expect(statuses(applied(group, change))).toEqual(['blacklisted']);
    expect(change).toMatchObject({ nextAttemptAt: null, finished: true });
  });
});
