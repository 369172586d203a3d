import { ProvisioningCleanupQueue } from '@voiceplane/application';

const at = (minute: number) => new Date(Date.UTC(2030, 4, 1, 12, minute));

/**
 * The ProvisioningCleanupQueue port's behaviour, run against every implementation: tasks come due
 * at their time, a claim is a lease (the task is not due again before it ends, so a worker that
 * dies lets it run out), a retry counts the attempt and moves the next one, and a completed task
 * is gone. `open` gives an empty queue for each test.
 */
export function provisioningCleanupQueueContract(name: string, open: () => Promise<ProvisioningCleanupQueue>): void {
  describe(`ProvisioningCleanupQueue contract: ${name}`, () => {
    let queue: ProvisioningCleanupQueue;

    beforeEach(async () => {
      queue = await open();
    });

    it('stores each task with its defaults and answers them in order', async () => {
      const added = await queue.add(
        [
          { action: 'delete_trunk', resourceId: 'ST_old', waitForCalls: true },
          { action: 'point_route', resourceId: 'SDR_1', targetTrunkId: 'ST_new', releaseTrunkIds: ['ST_a', 'ST_b'] },
        ],
        at(5),
        at(0),
      );

      expect(added).toEqual([
        {
          id: expect.any(Number),
          action: 'delete_trunk',
          resourceId: 'ST_old',
          targetTrunkId: null,
          releaseTrunkIds: [],
          waitForCalls: true,
          attempts: 0,
          createdAt: at(0),
        },
        {
          id: expect.any(Number),
          action: 'point_route',
          resourceId: 'SDR_1',
          targetTrunkId: 'ST_new',
          releaseTrunkIds: ['ST_a', 'ST_b'],
          waitForCalls: false,
          attempts: 0,
          createdAt: at(0),
        },
      ]);
      expect(added[0].id).toBeLessThan(added[1].id);
      expect(await queue.pending()).toEqual(added);
    });

    it('hands out only due tasks, up to the limit, and not again while the lease runs', async () => {
      const [early, later, notYet] = [
        ...(await queue.add(
          [
            { action: 'delete_route', resourceId: 'SDR_1' },
            { action: 'delete_route', resourceId: 'SDR_2' },
          ],
          at(1),
          at(0),
        )),
        ...(await queue.add([{ action: 'delete_route', resourceId: 'SDR_3' }], at(30), at(0))),
      ];

      expect(await queue.claimDue(at(2), at(10), 1)).toEqual([early]);
      expect(await queue.claimDue(at(2), at(10), 5)).toEqual([later]);
      expect(await queue.claimDue(at(9), at(20), 5)).toEqual([]);
      // The lease ran out without the worker finishing: the tasks are due again, the later one still not.
      expect((await queue.claimDue(at(10), at(45), 5)).map((t) => t.id)).toEqual([early.id, later.id]);
      expect((await queue.claimDue(at(30), at(40), 5)).map((t) => t.id)).toEqual([notYet.id]);
    });

    it('counts a failed attempt and makes the task due at the retry time; a completed task is gone', async () => {
      const [task, other] = await queue.add(
        [
          { action: 'delete_trunk', resourceId: 'ST_1' },
          { action: 'delete_trunk', resourceId: 'ST_2' },
        ],
        at(0),
        at(0),
      );
      await queue.claimDue(at(0), at(5), 5);

      await queue.retryAt(task.id, at(2), 'provider answered 503: '.padEnd(800, 'x'));
      expect(await queue.claimDue(at(1), at(10), 5)).toEqual([]);
      expect(await queue.claimDue(at(2), at(10), 5)).toEqual([{ ...task, attempts: 1 }]);

      await queue.complete(other.id);
      await queue.complete(other.id);
      expect(await queue.pending()).toEqual([{ ...task, attempts: 1 }]);
    });

    it('keeps one delete intent per number: a second is refused until the first is completed', async () => {
      const first = await queue.addDeleteIntent('7:41', at(5), at(0));
      expect(first).toEqual({
        id: expect.any(Number),
        action: 'delete_number',
        resourceId: '7:41',
        targetTrunkId: null,
        releaseTrunkIds: [],
        waitForCalls: false,
        attempts: 0,
        createdAt: at(0),
      });
      expect(
        await Promise.all([queue.addDeleteIntent('7:41', at(6), at(1)), queue.addDeleteIntent('7:41', at(6), at(1))]),
      ).toEqual([null, null]);
      // Other numbers, and other actions on the same resource id, are not held back.
      expect(await queue.addDeleteIntent('7:42', at(5), at(0))).not.toBeNull();
      expect(await queue.add([{ action: 'delete_route', resourceId: '7:41' }], at(5), at(0))).toHaveLength(1);
      expect((await queue.pending()).filter((t) => t.resourceId === '7:41')).toHaveLength(2);

      await queue.complete(first!.id);
      expect(await queue.addDeleteIntent('7:41', at(8), at(7))).toMatchObject({
        action: 'delete_number',
        resourceId: '7:41',
        createdAt: at(7),
      });
    });
  });
}
