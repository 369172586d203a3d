import { ok, RuntimeConfig } from '@voiceplane/domain';
import { CallAnalyticsRepository, CallChanges, CallRepository } from '@voiceplane/application';

export interface CallAnalyticsFixture {
  readonly analytics: CallAnalyticsRepository;
  /** Where the calls counted are stored. */
  readonly calls: CallRepository;
  readonly users: readonly [number, number];
}

const DAY1 = new Date('2030-04-01T09:00:00.000Z');
const DAY2 = new Date('2030-04-02T23:59:00.000Z');
const RANGE = { from: new Date('2030-04-01T00:00:00.000Z'), until: new Date('2030-04-03T00:00:00.000Z') };
const CONFIG = { direction: 'outbound' } as unknown as RuntimeConfig;

/** The CallAnalyticsRepository port's counts, run against every implementation. */
export function callAnalyticsContract(name: string, open: () => Promise<CallAnalyticsFixture>): void {
  describe(`CallAnalyticsRepository contract: ${name}`, () => {
    let f: CallAnalyticsFixture;
    async function call(
      now: Date,
      changes: CallChanges,
      over: { userId?: number; assistantId?: number } = {},
    ): Promise<void> {
      const { call: created } = await f.calls.create({
        userId: over.userId ?? f.users[0],
        assistantId: over.assistantId ?? 7,
        direction: 'outbound',
        channel: 'phone',
        status: 'initiated',
        customerPhone: '+14155551234',
        line: null,
        variables: {},
        runtimeConfig: CONFIG,
        now,
      });
      await f.calls.update(created.id, async () => ok({ changes, at: now, answer: null }));
    }

    beforeEach(async () => {
      f = await open();
      const answered = { answeredAt: DAY1, finishedAt: DAY1 };
      await call(DAY1, {
        ...answered,
        status: 'completed',
        duration: 10,
        cost: 0.1,
        endedReason: 'customer_hangup',
        extractedVariables: { status: true },
      });
      await call(DAY1, {
        ...answered,
        status: 'completed',
        duration: 30,
        cost: 0.1,
        endedReason: 'customer_hangup',
        extractedVariables: { status: false, booked: 'true' },
      });
      await call(DAY2, { status: 'no-answer', endedReason: 'no_answer' });
      await call(
        DAY2,
        {
          ...answered,
          status: 'completed',
          duration: 50,
          cost: 0.2,
          endedReason: 'assistant_hangup',
          extractedVariables: { status: true },
        },
        { assistantId: 8 },
      );
      // Outside the range, and another account's: never counted.
      await call(new Date('2030-04-03T00:00:00.000Z'), { status: 'failed', endedReason: 'late' });
      await call(DAY1, { status: 'failed', endedReason: 'theirs' }, { userId: f.users[1] });
    });

    it("counts the account's calls of the range per day and status, with the totals and the top ended reasons", async () => {
      const counts = await f.analytics.count(f.users[0], { range: RANGE, assistantId: null, goalVariable: 'status' });
      expect(counts.days).toEqual([
        { date: '2030-04-01', status: 'completed', calls: 2, cost: 0.2 },
        { date: '2030-04-02', status: 'completed', calls: 1, cost: 0.2 },
        { date: '2030-04-02', status: 'no-answer', calls: 1, cost: 0 },
      ]);
      expect(counts.totals).toEqual({
        calls: 4,
        answered: 3,
        averageDuration: 30,
        p95Duration: expect.closeTo(48, 5),
        cost: expect.closeTo(0.4, 5),
        completed: 3,
        goalMet: 2,
      });
      expect(counts.endedReasons).toEqual([
        { endedReason: 'customer_hangup', calls: 2 },
        { endedReason: 'assistant_hangup', calls: 1 },
        { endedReason: 'no_answer', calls: 1 },
      ]);
    });

    it('narrows to one assistant and reads the goal variable it is given', async () => {
      const one = await f.analytics.count(f.users[0], { range: RANGE, assistantId: 8, goalVariable: 'status' });
      expect(one.totals).toEqual(expect.objectContaining({ calls: 1, completed: 1, goalMet: 1 }));
      const booked = await f.analytics.count(f.users[0], { range: RANGE, assistantId: null, goalVariable: 'booked' });
      expect(booked.totals.goalMet).toBe(1);
    });

    it('has nothing for a range without calls', async () => {
      const none = await f.analytics.count(f.users[0], {
        range: { from: new Date('2031-01-01T00:00:00Z'), until: new Date('2031-01-02T00:00:00Z') },
        assistantId: null,
        goalVariable: 'status',
      });
      expect(none).toEqual({
        days: [],
        totals: { calls: 0, answered: 0, averageDuration: null, p95Duration: null, cost: 0, completed: 0, goalMet: 0 },
        endedReasons: [],
      });
    });
  });
}
