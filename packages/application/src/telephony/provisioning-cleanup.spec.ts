import {
  InMemoryProvisioningCleanupQueue,
  InMemoryUnitOfWork,
  ManualClock,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { ProvisioningCleanup } from './provisioning-cleanup';
import { SipProvisioner } from './ports';

/** The clean-up job's decisions on the in-memory queue (proven by the clean-up queue contract). */

/** A provider holding trunks and routes; it can carry calls on a trunk or refuse every operation. */
class ProviderState implements SipProvisioner {
  readonly trunks = new Set<string>(['ST_old', 'ST_older']);
  readonly routes = new Map<string, string>([['SDR_1', 'ST_old']]);
  readonly busy = new Set<string>();
  down = false;

  async createInboundTrunk(): Promise<string> {
    throw new Error('not used by the clean-up');
  }

  async createOutboundTrunk(): Promise<string> {
    throw new Error('not used by the clean-up');
  }

  async routeInboundCalls(): Promise<string> {
    throw new Error('not used by the clean-up');
  }

  async pointInboundRoute(routeId: string, trunkId: string): Promise<void> {
    this.reach();
    this.routes.set(routeId, trunkId);
  }

  async deleteInboundRoute(routeId: string): Promise<void> {
    this.reach();
    this.routes.delete(routeId);
  }

  async deleteTrunk(trunkId: string): Promise<void> {
    this.reach();
    this.trunks.delete(trunkId);
  }

  async trunkHasActiveCalls(trunkId: string): Promise<boolean> {
    this.reach();
    return this.busy.has(trunkId);
  }

  private reach(): void {
    if (this.down) throw new Error('provider answered 503');
  }
}

function setup() {
  const clock = new ManualClock(new Date('2030-05-01T12:00:00.000Z'));
  const queue = new InMemoryProvisioningCleanupQueue();
  const provider = new ProviderState();
  const log = new RecordingLogger();
  const cleanup = new ProvisioningCleanup(new InMemoryUnitOfWork(), provider, queue, clock, log);
  return { clock, queue, provider, log, cleanup };
}

it('points a route back and then retires the trunks it held, leaving nothing pending', async () => {
  const s = setup();
  s.provider.trunks.add('ST_new');
  await s.cleanup.run(
    await s.cleanup.lease([
      { action: 'point_route', resourceId: 'SDR_1', targetTrunkId: 'ST_new', releaseTrunkIds: ['ST_old', 'ST_older'] },
    ]),
  );
  expect(s.provider.routes.get('SDR_1')).toBe('ST_new');
  expect([...s.provider.trunks]).toEqual(['ST_new']);
  expect(await s.queue.pending()).toEqual([]);
});

it('keeps a failed task with its attempt counted, logs it, and the job tries it again once its delay has passed', async () => {
  const s = setup();
  s.provider.down = true;
  await s.cleanup.run(await s.cleanup.lease([{ action: 'delete_route', resourceId: 'SDR_1' }]));
  expect(await s.queue.pending()).toEqual([expect.objectContaining({ action: 'delete_route', attempts: 1 })]);
  expect(s.log.lines).toEqual([
    expect.objectContaining({
      level: 'warn',
      details: expect.objectContaining({ resourceId: 'SDR_1', error: 'provider answered 503' }),
    }),
  ]);

  s.provider.down = false;
  expect(await s.cleanup.runDue()).toBe(0);
  s.clock.advance(60_000);
  expect(await s.cleanup.runDue()).toBe(1);
  expect(s.provider.routes.size).toBe(0);
  expect(await s.queue.pending()).toEqual([]);
});

it('waits for the calls on a trunk to end before deleting it', async () => {
  const s = setup();
  s.provider.busy.add('ST_old');
  await s.cleanup.defer([{ action: 'delete_trunk', resourceId: 'ST_old', waitForCalls: true }]);
  s.clock.advance(60_000);
  expect(await s.cleanup.runDue()).toBe(1);
  expect(s.provider.trunks.has('ST_old')).toBe(true);

  s.provider.busy.delete('ST_old');
  s.clock.advance(60_000);
  expect(await s.cleanup.runDue()).toBe(1);
  expect(s.provider.trunks.has('ST_old')).toBe(false);
  expect(await s.queue.pending()).toEqual([]);
});
