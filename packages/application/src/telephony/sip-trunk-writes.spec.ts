import {
  InMemoryPhoneNumbers,
  InMemoryProvisioningCleanupQueue,
  InMemoryUnitOfWork,
  ManualClock,
  RecordingLogger,
} from '@voiceplane/adapter-fakes';
import { SecretCipher } from '../common';
import { CreateSipTrunk } from './create-sip-trunk';
import { UpdateSipTrunk } from './update-sip-trunk';
import { InboundTrunkSpec, SipProvisioner } from './ports';
import { ProvisioningCleanup } from './provisioning-cleanup';

/** Creating and changing SIP trunks on the in-memory stores (proven by the telephony and clean-up queue contracts). */

/** A provider that hands out ids and can be told to refuse one step. */
class Provider implements SipProvisioner {
  readonly trunks = new Set<string>();
  readonly routes = new Map<string, string>();
  readonly inbound: InboundTrunkSpec[] = [];
  refuse: 'outbound' | 'route' | 'move' | 'delete' | null = null;
  private sequence = 0;

  async createInboundTrunk(spec: InboundTrunkSpec): Promise<string> {
    this.inbound.push(spec);
    return this.trunk();
  }

  async createOutboundTrunk(): Promise<string> {
    if (this.refuse === 'outbound') throw new Error('outbound trunk refused');
    return this.trunk();
  }

  async routeInboundCalls(_owner: unknown, _phoneNumber: string, trunkId: string): Promise<string> {
    if (this.refuse === 'route') throw new Error('route refused');
    const id = `SDR_${++this.sequence}`;
    this.routes.set(id, trunkId);
    return id;
  }

  async pointInboundRoute(routeId: string, trunkId: string): Promise<void> {
    if (this.refuse === 'move') {
      this.refuse = null;
      throw new Error('route move refused');
    }
    this.routes.set(routeId, trunkId);
  }

  async deleteInboundRoute(routeId: string): Promise<void> {
    this.routes.delete(routeId);
  }

  async deleteTrunk(trunkId: string): Promise<void> {
    if (this.refuse === 'delete') throw new Error('delete refused');
    this.trunks.delete(trunkId);
  }

  async trunkHasActiveCalls(): Promise<boolean> {
    return false;
  }

  private trunk(): string {
    const id = `ST_${++this.sequence}`;
    this.trunks.add(id);
    return id;
  }
}

const INPUT = {
  phoneNumber: '+493012345678',
  sipUsername: 'acme-trunk',
  sipPassword: 'secret-1',
  sipAddress: 'sip.carrier.example',
};

function setup() {
  const clock = new ManualClock(new Date('2030-05-01T12:00:00.000Z'));
  const phones = new InMemoryPhoneNumbers();
  const queue = new InMemoryProvisioningCleanupQueue();
  const provider = new Provider();
  const log = new RecordingLogger();
  const uow = new InMemoryUnitOfWork();
  const cipher = new SecretCipher(async () => 'test-key');
  const cleanup = new ProvisioningCleanup(uow, provider, queue, clock, log);
  const deps = { uow, trunks: phones.trunks, provisioner: provider, cleanup, cipher, clock, log };
  const create = new CreateSipTrunk(deps);
  const update = new UpdateSipTrunk(deps);
  return { clock, phones, queue, provider, log, cipher, create, update };
}

describe('CreateSipTrunk', () => {
  it('makes both trunks and the route first, then stores the trunk with its password sealed', async () => {
    const s = setup();
    const created = await s.create.execute(1, INPUT);
    if (!created.ok) throw new Error(created.error.code);
    const t = created.value;
    expect(t).toEqual(expect.objectContaining({ userId: 1, phoneNumber: INPUT.phoneNumber, inboundRouteId: 'SDR_3' }));
    expect(s.provider.routes.get(t.inboundRouteId)).toBe(t.inboundTrunkId);
    expect([...s.provider.trunks]).toEqual([t.inboundTrunkId, t.outboundTrunkId]);
    expect(s.provider.inbound[0].owner).toEqual({ accountId: 1, phoneNumberId: t.id });
    expect(t.sipPasswordCipher).not.toContain('secret-1');
    expect(await s.cipher.decrypt(t.sipPasswordCipher)).toBe('secret-1');
    expect(await s.phones.trunks.find(1, t.id)).not.toBeNull();
  });

  it('refuses invalid settings and a duplicate before asking the provider', async () => {
    const s = setup();
    const invalid = await s.create.execute(1, { ...INPUT, inboundAuthorizationType: 'ip', allowedInboundIps: [] });
    expect(invalid).toEqual({
      ok: false,
      error: { code: 'invalid', problems: expect.objectContaining({ allowed_inbound_ips: expect.any(Array) }) },
    });
    expect(s.provider.trunks.size).toBe(0);
    expect((await s.create.execute(1, INPUT)).ok).toBe(true);
    const trunksBefore = s.provider.trunks.size;
    expect(await s.create.execute(1, INPUT)).toEqual({ ok: false, error: { code: 'duplicate' } });
    expect(s.provider.trunks.size).toBe(trunksBefore);
  });

  it('takes back what it made when a later step fails, and stores nothing', async () => {
    const s = setup();
    s.provider.refuse = 'route';
    expect(await s.create.execute(1, INPUT)).toEqual({ ok: false, error: { code: 'provisioning_failed' } });
    expect(s.provider.trunks.size).toBe(0);
    expect(s.provider.routes.size).toBe(0);
    expect(await s.phones.trunks.list(1)).toEqual([]);
    expect(await s.queue.pending()).toEqual([]);
    expect(s.log.lines).toEqual([
      expect.objectContaining({ level: 'error', details: expect.objectContaining({ error: 'route refused' }) }),
    ]);
  });

  it('leaves a trunk the provider would not delete to the clean-up job', async () => {
    const s = setup();
    s.provider.refuse = 'outbound';
    expect(await s.create.execute(1, INPUT)).toEqual({ ok: false, error: { code: 'provisioning_failed' } });
    expect(s.provider.trunks.size).toBe(0);

    // The outbound trunk fails, and then the provider refuses to delete the inbound one.
    s.provider.createOutboundTrunk = async () => {
      s.provider.refuse = 'delete';
      throw new Error('outbound trunk refused');
    };
    expect(await s.create.execute(1, INPUT)).toEqual({ ok: false, error: { code: 'provisioning_failed' } });
    const [left] = [...s.provider.trunks];
    expect(await s.queue.pending()).toEqual([expect.objectContaining({ action: 'delete_trunk', resourceId: left })]);
    expect(await s.phones.trunks.list(1)).toEqual([]);
  });
});

describe('UpdateSipTrunk', () => {
  async function withTrunk() {
    const s = setup();
    const created = await s.create.execute(1, INPUT);
    if (!created.ok) throw new Error(created.error.code);
    s.clock.advance(60_000);
    return { ...s, trunk: created.value };
  }

  it('answers not_found for another account before it looks at the body', async () => {
    const s = await withTrunk();
    expect(
      await s.update.execute({ userId: 2, id: s.trunk.id, changes: { ok: false, error: 'malformed' }, dryRun: false }),
    ).toEqual({ ok: false, error: { code: 'not_found' } });
    expect(
      await s.update.execute({ userId: 1, id: s.trunk.id, changes: { ok: false, error: 'malformed' }, dryRun: false }),
    ).toEqual({ ok: false, error: { code: 'malformed' } });
  });

  it('stores a nickname without touching the provider, and a dry run changes nothing at all', async () => {
    const s = await withTrunk();
    const dry = await s.update.execute({
      userId: 1,
      id: s.trunk.id,
      changes: { ok: true, value: { sipPassword: 'secret-2' } },
      dryRun: true,
    });
    expect(dry.ok && dry.value.reprovision).toEqual({ inbound: true, outbound: true });
    expect(await s.phones.trunks.find(1, s.trunk.id)).toEqual(s.trunk);
    const trunksBefore = [...s.provider.trunks];
    const renamed = await s.update.execute({
      userId: 1,
      id: s.trunk.id,
      changes: { ok: true, value: { nickname: 'Berlin' } },
      dryRun: false,
    });
    expect(renamed.ok && renamed.value.reprovision).toEqual({ inbound: false, outbound: false });
    expect((await s.phones.trunks.find(1, s.trunk.id))?.nickname).toBe('Berlin');
    expect([...s.provider.trunks]).toEqual(trunksBefore);
  });

  it('makes the new trunks before it breaks the old: route moved, new ids and password stored, old trunks retired', async () => {
    const s = await withTrunk();
    const updated = await s.update.execute({
      userId: 1,
      id: s.trunk.id,
      changes: { ok: true, value: { sipPassword: 'secret-2' } },
      dryRun: false,
    });
    if (!updated.ok) throw new Error(updated.error.code);
    const t = updated.value.trunk;
    expect(t.inboundTrunkId).not.toBe(s.trunk.inboundTrunkId);
    expect(t.outboundTrunkId).not.toBe(s.trunk.outboundTrunkId);
    expect(s.provider.routes.get(s.trunk.inboundRouteId)).toBe(t.inboundTrunkId);
    expect([...s.provider.trunks]).toEqual([t.inboundTrunkId, t.outboundTrunkId]);
    expect(await s.cipher.decrypt((await s.phones.trunks.find(1, s.trunk.id))!.sipPasswordCipher)).toBe('secret-2');
    expect(await s.queue.pending()).toEqual([]);
  });

  it('takes the new trunks back and leaves the stored trunk as it was when the route cannot be moved', async () => {
    const s = await withTrunk();
    s.provider.refuse = 'move';
    expect(
      await s.update.execute({
        userId: 1,
        id: s.trunk.id,
        changes: { ok: true, value: { sipPassword: 'secret-2' } },
        dryRun: false,
      }),
    ).toEqual({ ok: false, error: { code: 'provisioning_failed' } });
    expect(await s.phones.trunks.find(1, s.trunk.id)).toEqual(s.trunk);
    expect(s.provider.routes.get(s.trunk.inboundRouteId)).toBe(s.trunk.inboundTrunkId);
    expect([...s.provider.trunks]).toEqual([s.trunk.inboundTrunkId, s.trunk.outboundTrunkId]);
    expect(await s.queue.pending()).toEqual([]);
  });
});
