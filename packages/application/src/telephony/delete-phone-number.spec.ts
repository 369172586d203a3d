import {
  InMemoryPhoneNumbers,
  InMemoryProvisioningCleanupQueue,
  InMemoryUnitOfWork,
  ManualClock,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { DeletePhoneNumber } from './delete-phone-number';
import { NumberInventory, SipProvisioner } from './ports';
import { ProvisioningCleanup } from './provisioning-cleanup';

/** Deleting a number on the in-memory stores (proven by the telephony and clean-up queue contracts). */

/** The SIP provider and the number seller in one: what each still holds, and a switch to refuse everything. */
class Providers implements SipProvisioner, Pick<NumberInventory, 'release'> {
  readonly trunks = new Set<string>(['ST_in', 'ST_out']);
  readonly routes = new Set<string>(['SDR_1']);
  readonly owned = new Set<string>(['+14155550101']);
  down = false;

  async createInboundTrunk(): Promise<string> {
    throw new Error('not used by a delete');
  }

  async createOutboundTrunk(): Promise<string> {
    throw new Error('not used by a delete');
  }

  async routeInboundCalls(): Promise<string> {
    throw new Error('not used by a delete');
  }

  async pointInboundRoute(): Promise<void> {
    throw new Error('not used by a delete');
  }

  async deleteInboundRoute(routeId: string): Promise<void> {
    this.reach();
    this.routes.delete(routeId);
  }

  async deleteTrunk(trunkId: string): Promise<void> {
    this.reach();
    this.trunks.delete(trunkId);
  }

  async trunkHasActiveCalls(): Promise<boolean> {
    this.reach();
    return false;
  }

  async release(phoneNumber: string): Promise<void> {
    this.reach();
    this.owned.delete(phoneNumber);
  }

  private reach(): void {
    if (this.down) throw new Error('provider answered 503');
  }
}

async function setup() {
  const clock = new ManualClock(new Date('2030-05-01T12:00:00.000Z'));
  const phones = new InMemoryPhoneNumbers();
  const queue = new InMemoryProvisioningCleanupQueue();
  const providers = new Providers();
  const log = new RecordingLogger();
  const uow = new InMemoryUnitOfWork();
  const cleanup = new ProvisioningCleanup(uow, providers, queue, clock, log);
  const inventory: NumberInventory = {
    search: async () => [],
    find: async () => null,
    purchase: async () => null,
    release: (n) => providers.release(n),
  };
  const remove = new DeletePhoneNumber({
    uow,
    numbers: phones.numbers,
    trunks: phones.trunks,
    provisioner: providers,
    inventory,
    cleanup,
    log,
  });
  const now = clock.now();
  const purchased = await phones.numbers.insertPurchased({
    userId: 1,
    phoneNumber: '+14155550101',
    countryCode: 'US',
    smsCapable: true,
    monthlyPrice: 1.5,
    providerReference: 'PN1',
    purchasedAt: now,
    renewsAt: now,
  });
  if (!purchased) throw new Error('taken');
  const trunk = await phones.trunks.insert({
    id: await phones.trunks.reserveId(),
    userId: 1,
    phoneNumber: '+4930555000',
    nickname: null,
    countryCode: 'DE',
    sipUsername: 'u',
    sipPasswordCipher: 'sealed',
    sipAddress: 'sip.example.test',
    sipCallingFormat: '+e164',
    inboundAuthorizationType: 'auth',
    allowedInboundIps: null,
    outboundProxy: false,
    inboundTrunkId: 'ST_in',
    outboundTrunkId: 'ST_out',
    inboundRouteId: 'SDR_1',
    createdAt: now,
    updatedAt: now,
  });
  return { phones, queue, providers, log, cleanup, remove, purchased, trunk };
}

describe('DeletePhoneNumber', () => {
  it('gives a purchased number back to the seller, then deletes its row, leaving nothing pending', async () => {
    const s = await setup();
    expect(await s.remove.execute(1, s.purchased.id)).toEqual({ ok: true, value: undefined });
    expect(s.providers.owned.size).toBe(0);
    expect(await s.phones.numbers.find(1, s.purchased.id)).toBeNull();
    expect(await s.queue.pending()).toEqual([]);
  });

  it("removes a SIP number's route, deletes its row and retires both of its trunks", async () => {
    const s = await setup();
    expect(await s.remove.execute(1, s.trunk.id)).toEqual({ ok: true, value: undefined });
    expect(s.providers.routes.size).toBe(0);
    expect(s.providers.trunks.size).toBe(0);
    expect(await s.phones.trunks.find(1, s.trunk.id)).toBeNull();
    expect(await s.queue.pending()).toEqual([]);
  });

  it('changes nothing when the provider refuses: the row stays, the intent is dropped, the failure is logged', async () => {
    const s = await setup();
    s.providers.down = true;
    expect(await s.remove.execute(1, s.trunk.id)).toEqual({ ok: false, error: 'failed' });
    expect(await s.phones.trunks.find(1, s.trunk.id)).not.toBeNull();
    expect(s.providers.routes.has('SDR_1')).toBe(true);
    expect(await s.queue.pending()).toEqual([]);
    expect(s.log.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        details: expect.objectContaining({ phoneNumberId: s.trunk.id, error: 'provider answered 503' }),
      }),
    ]);
  });

  it("answers not_found for another account's number without asking the provider", async () => {
    const s = await setup();
    expect(await s.remove.execute(2, s.purchased.id)).toEqual({ ok: false, error: 'not_found' });
    expect(s.providers.owned.size).toBe(1);
    expect(await s.queue.pending()).toEqual([]);
  });

  it('finishes the intent a lost request left behind, and only closes it when the number is already gone', async () => {
    const s = await setup();
    const [left] = await s.cleanup.lease([{ action: 'delete_number', resourceId: `1:${s.purchased.id}` }]);
    await s.remove.finish(left);
    expect(await s.phones.numbers.find(1, s.purchased.id)).toBeNull();
    expect(s.providers.owned.size).toBe(0);
    expect(await s.queue.pending()).toEqual([]);

    const [again] = await s.cleanup.lease([{ action: 'delete_number', resourceId: `1:${s.purchased.id}` }]);
    s.providers.down = true;
    await s.remove.finish(again);
    expect(await s.queue.pending()).toEqual([]);
  });
});
