import { formatNational, NUMBER_COUNTRIES, splitNumber } from '@voiceplane/domain';
import { SandboxFault } from './armed-faults';
import { SandboxNumberInventory } from './sandbox-number-inventory';
import { sandboxId, SandboxSipProvisioner } from './sandbox-sip-provisioner';

const owner = { accountId: 7, phoneNumberId: 31 };
const credentials = { username: 'acme', password: 'pw1' };
const inbound = {
  owner,
  phoneNumber: '+493012345678',
  credentials,
  authorization: 'auth' as const,
  allowedAddresses: [],
};
const outbound = {
  owner,
  phoneNumber: '+493012345678',
  credentials,
  address: 'sip.carrier.example',
  viaFixedEgress: false,
};

// Lengths of national significant numbers per country, for the plausibility check.
const NSN_LENGTHS: Record<string, number[]> = {
  US: [10],
  CA: [10],
  GB: [10],
  AU: [9],
  IL: [8, 9],
  PL: [9],
  FI: [8, 9],
  NL: [9],
  DK: [8],
  IT: [10],
  DE: [10, 11],
};

describe('sandbox SIP provisioner', () => {
  it('makes ST_ + 12 base62 ids, reproducible from the seed', async () => {
    const a = new SandboxSipProvisioner('seed-1');
    const b = new SandboxSipProvisioner('seed-1');
    const ids = [await a.createInboundTrunk(inbound), await a.createOutboundTrunk(outbound)];
    expect(ids).toEqual([await b.createInboundTrunk(inbound), await b.createOutboundTrunk(outbound)]);
    for (const id of ids) expect(id).toMatch(/^ST_[0-9A-Za-z]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(sandboxId('ST_', 'seed-1', 1)).toBe(ids[0]);
    expect(await new SandboxSipProvisioner().createInboundTrunk(inbound)).not.toBe(ids[0]);
  });

  it('keeps what each trunk was created with', async () => {
    const p = new SandboxSipProvisioner('s');
    const id = await p.createOutboundTrunk({ ...outbound, viaFixedEgress: true });
    expect(p.trunk(id)).toEqual({
      id,
      direction: 'outbound',
      owner,
      phoneNumber: '+493012345678',
      username: 'acme',
      password: 'pw1',
      authorization: null,
      allowedAddresses: [],
      address: 'sip.carrier.example',
      viaFixedEgress: true,
    });
  });

  it('keeps a real provider’s integrity rules for routes', async () => {
    const p = new SandboxSipProvisioner('s');
    const trunk = await p.createInboundTrunk(inbound);
    const out = await p.createOutboundTrunk(outbound);
    await expect(p.routeInboundCalls(owner, '+49', out)).rejects.toThrow('does not exist');
    const route = await p.routeInboundCalls(owner, '+49', trunk);
    expect(route).toMatch(/^SDR_[0-9A-Za-z]{12}$/);
    await expect(p.deleteTrunk(trunk)).rejects.toThrow(`still used by route ${route}`);
    const second = await p.createInboundTrunk(inbound);
    await p.pointInboundRoute(route, second);
    await p.deleteTrunk(trunk);
    expect(p.trunk(trunk)).toBeUndefined();
    expect(p.route(route)?.trunkId).toBe(second);
    await p.deleteInboundRoute(route);
    await p.deleteInboundRoute(route);
    await p.deleteTrunk(second);
    await p.deleteTrunk('ST_unknown0000');
    expect(p.trunks()).toEqual([p.trunk(out)]);
    expect(p.routes()).toEqual([]);
  });

  it('fails exactly the armed operations of the armed account', async () => {
    const p = new SandboxSipProvisioner('s');
    expect(p.faults.arm({ accountId: 7, count: 2, after: 1 })).toBe(2);
    const first = await p.createInboundTrunk(inbound);
    await expect(p.createOutboundTrunk(outbound)).rejects.toBeInstanceOf(SandboxFault);
    await expect(p.createOutboundTrunk({ ...outbound, owner: { accountId: 8, phoneNumberId: 1 } })).resolves.toMatch(
      /^ST_/,
    );
    await expect(p.deleteTrunk(first)).rejects.toThrow('Sandbox fault injected (sip_provisioning).');
    expect(p.faults.remaining(7)).toBe(0);
    await p.deleteTrunk(first);
  });

  it('a fault aimed at one number spares the account’s other numbers', async () => {
    const p = new SandboxSipProvisioner('s');
    p.faults.arm({ accountId: 7, targetId: 31, count: 1 });
    await expect(p.createInboundTrunk({ ...inbound, owner: { accountId: 7, phoneNumberId: 32 } })).resolves.toMatch(
      /^ST_/,
    );
    await expect(p.createInboundTrunk(inbound)).rejects.toBeInstanceOf(SandboxFault);
    await expect(p.createInboundTrunk(inbound)).resolves.toMatch(/^ST_/);
  });

  it('reports simulated calls on a trunk', async () => {
    const p = new SandboxSipProvisioner('s');
    const t = await p.createInboundTrunk(inbound);
    expect(await p.trunkHasActiveCalls(t)).toBe(false);
    p.setActiveCalls(t, 2);
    expect(await p.trunkHasActiveCalls(t)).toBe(true);
  });
});

describe('sandbox number inventory', () => {
  const inventory = new SandboxNumberInventory();

  it.each(NUMBER_COUNTRIES)(
    '%s: 20 distinct, E.164-valid, plausible numbers, sorted and deterministic',
    async (country) => {
      const found = await inventory.search({ countryCode: country, contains: null, limit: 100, accountId: 1 });
      expect(found).toHaveLength(20);
      expect(new Set(found.map((n) => n.phoneNumber)).size).toBe(20);
      expect(found.map((n) => n.phoneNumber)).toEqual([...found.map((n) => n.phoneNumber)].sort());
      for (const n of found) {
        expect(n.phoneNumber).toMatch(/^\+[1-9]\d{6,14}$/);
        const split = splitNumber(n.phoneNumber);
        expect(split?.country).toBe(country);
        expect(NSN_LENGTHS[country]).toContain(split?.national.length);
        expect(n.phoneNumberFormatted).toBe(formatNational(n.phoneNumber));
        expect(n.countryCode).toBe(country);
        expect(n.price).toBeGreaterThan(0);
        expect(n.billingPriceId).toMatch(new RegExp(`^price_${country.toLowerCase()}_(local|mobile)_monthly$`));
        expect(['none', 'local', 'foreign', 'inventory']).toContain(n.addressRequirements);
      }
      expect(new Set(found.map((n) => n.addressRequirements))).toEqual(
        new Set(['none', 'local', 'foreign', 'inventory']),
      );
      expect(
        await new SandboxNumberInventory().search({ countryCode: country, contains: null, limit: 100, accountId: 2 }),
      ).toEqual(found);
    },
  );

  it('filters by digits anywhere in the number and caps the list', async () => {
    const all = inventory.numbersOf('GB');
    const mobile = await inventory.search({ countryCode: 'GB', contains: '7700900', limit: 20, accountId: 1 });
    expect(mobile.map((n) => n.phoneNumber)).toEqual(
      all.filter((n) => n.phoneNumber.startsWith('+447700900')).map((n) => n.phoneNumber),
    );
    expect(mobile.every((n) => n.smsCapable)).toBe(true);
    expect(await inventory.search({ countryCode: 'GB', contains: null, limit: 3, accountId: 1 })).toEqual(
      all.slice(0, 3),
    );
    expect(await inventory.search({ countryCode: 'GB', contains: '9999999999', limit: 20, accountId: 1 })).toEqual([]);
  });

  it('finds and sells catalogue numbers only', async () => {
    const offer = inventory.numbersOf('US')[0];
    const holder = { accountId: 1, phoneNumberId: null };
    expect(await inventory.find(offer.phoneNumber, holder)).toEqual(offer);
    expect(await inventory.find('+14155559999', holder)).toBeNull();
    expect(await inventory.purchase(offer, holder)).toEqual({ reference: null });
    expect(await inventory.purchase({ ...offer, phoneNumber: '+14155559999' }, holder)).toBeNull();
  });

  it('armed faults fail searches and purchases of that account', async () => {
    const inv = new SandboxNumberInventory();
    inv.faults.arm({ accountId: 5, count: 2 });
    await expect(inv.search({ countryCode: 'US', contains: null, limit: 20, accountId: 6 })).resolves.toHaveLength(20);
    await expect(inv.search({ countryCode: 'US', contains: null, limit: 20, accountId: 5 })).rejects.toBeInstanceOf(
      SandboxFault,
    );
    await expect(
      inv.find(inv.numbersOf('US')[0].phoneNumber, { accountId: 5, phoneNumberId: null }),
    ).rejects.toBeInstanceOf(SandboxFault);
    await expect(inv.search({ countryCode: 'US', contains: null, limit: 20, accountId: 5 })).resolves.toHaveLength(20);
  });
});
