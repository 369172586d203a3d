import { InboundTrunkSpec, OutboundTrunkSpec, SipProvisioner, TrunkOwner } from '@voiceplane/application';

/** A trunk as the provider holds it, in the port's words. */
export interface ProvidedTrunk {
  readonly id: string;
  readonly direction: 'inbound' | 'outbound';
  readonly phoneNumber: string;
}

/** An inbound route as the provider holds it. */
export interface ProvidedRoute {
  readonly id: string;
  readonly inboundTrunkId: string;
}

/**
 * The provider's side, seen and steered from outside the port: what it now holds, calls that only
 * the provider can establish, and a refusal only the provider can make.
 */
export interface SipProviderView {
  trunks(): ProvidedTrunk[];
  routes(): ProvidedRoute[];
  /** Establishes a call on the trunk; the returned function ends it. */
  startCall(trunkId: string): () => void;
  /** The provider refuses the next operation concerning this owner. */
  refuseNext(owner: TrunkOwner): void;
}

export interface SipProvisionerSubject {
  readonly provisioner: SipProvisioner;
  readonly provider: SipProviderView;
}

const owner: TrunkOwner = { accountId: 7, phoneNumberId: 31 };
const phoneNumber = '+493012345678';
const credentials = { username: 'acme-trunk', password: 's3cret' };
const byCredentials: InboundTrunkSpec = {
  owner,
  phoneNumber,
  credentials,
  authorization: 'auth',
  allowedAddresses: [],
};
const byAddress: InboundTrunkSpec = {
  owner,
  phoneNumber,
  credentials,
  authorization: 'ip',
  allowedAddresses: ['203.0.113.10', '198.51.100.0/24'],
};
const direct: OutboundTrunkSpec = {
  owner,
  phoneNumber,
  credentials,
  address: 'sip.carrier.example',
  viaFixedEgress: false,
};
const viaEgress: OutboundTrunkSpec = { ...direct, viaFixedEgress: true };

const byId = <T extends { id: string }>(items: T[]): T[] => [...items].sort((a, b) => a.id.localeCompare(b.id));

/**
 * The SipProvisioner port's behaviour (ports.ts, docs/telephony.md "Make-before-break"), run
 * against every implementation. `makeSubject` is called once per test and returns a provisioner
 * on a provider that holds nothing yet.
 */
export function sipProvisionerContract(name: string, makeSubject: () => SipProvisionerSubject): void {
  describe(`SipProvisioner contract: ${name}`, () => {
    let provisioner: SipProvisioner;
    let provider: SipProviderView;

    beforeEach(() => {
      ({ provisioner, provider } = makeSubject());
    });

    it('creates inbound and outbound trunks of every kind under distinct, non-empty ids the provider then holds', async () => {
      const inbound = [
        await provisioner.createInboundTrunk(byCredentials),
        await provisioner.createInboundTrunk(byAddress),
      ];
      const outbound = [
        await provisioner.createOutboundTrunk(direct),
        await provisioner.createOutboundTrunk(viaEgress),
      ];

      const ids = [...inbound, ...outbound];
      for (const id of ids) expect(id).toEqual(expect.stringMatching(/\S/));
      expect(new Set(ids).size).toBe(4);
      expect(byId(provider.trunks())).toEqual(
        byId([
          ...inbound.map((id) => ({ id, direction: 'inbound', phoneNumber })),
          ...outbound.map((id) => ({ id, direction: 'outbound', phoneNumber })),
        ]),
      );
    });

    it("routes an inbound trunk's calls under a distinct, non-empty route id", async () => {
      const first = await provisioner.createInboundTrunk(byCredentials);
      const second = await provisioner.createInboundTrunk(byAddress);

      const routes = [
        await provisioner.routeInboundCalls(owner, phoneNumber, first),
        await provisioner.routeInboundCalls(owner, '+493012345679', second),
      ];

      for (const id of routes) expect(id).toEqual(expect.stringMatching(/\S/));
      expect(routes[0]).not.toBe(routes[1]);
      expect(byId(provider.routes())).toEqual(
        byId([
          { id: routes[0], inboundTrunkId: first },
          { id: routes[1], inboundTrunkId: second },
        ]),
      );
    });

    it('moves a route onto a new inbound trunk before the old one is deleted (make-before-break)', async () => {
      const old = await provisioner.createInboundTrunk(byCredentials);
      const route = await provisioner.routeInboundCalls(owner, phoneNumber, old);

      const replacement = await provisioner.createInboundTrunk(byAddress);
      await provisioner.pointInboundRoute(route, replacement);
      await provisioner.deleteTrunk(old);

      expect(provider.routes()).toEqual([{ id: route, inboundTrunkId: replacement }]);
      expect(provider.trunks().map((t) => t.id)).toEqual([replacement]);
    });

    it('deletes routes and trunks, and deleting what no longer exists succeeds', async () => {
      const inbound = await provisioner.createInboundTrunk(byCredentials);
      const outbound = await provisioner.createOutboundTrunk(direct);
      const route = await provisioner.routeInboundCalls(owner, phoneNumber, inbound);

      await provisioner.deleteInboundRoute(route);
      await provisioner.deleteTrunk(inbound);
      await provisioner.deleteTrunk(outbound);
      expect(provider.routes()).toEqual([]);
      expect(provider.trunks()).toEqual([]);

      await provisioner.deleteInboundRoute(route);
      await provisioner.deleteTrunk(inbound);
      await provisioner.deleteTrunk(outbound);
      expect(provider.trunks()).toEqual([]);
    });

    it('throws what the provider refuses instead of taking it for done', async () => {
      const trunk = await provisioner.createInboundTrunk(byCredentials);
      const route = await provisioner.routeInboundCalls(owner, phoneNumber, trunk);

      provider.refuseNext(owner);
      await expect(provisioner.createOutboundTrunk(direct)).rejects.toThrow();
      provider.refuseNext(owner);
      await expect(provisioner.deleteInboundRoute(route)).rejects.toThrow();
      await provisioner.deleteInboundRoute(route);
      provider.refuseNext(owner);
      await expect(provisioner.deleteTrunk(trunk)).rejects.toThrow();

      expect(provider.trunks().map((t) => t.id)).toEqual([trunk]);
      expect(provider.routes()).toEqual([]);
    });

    it('tells whether deleting a trunk would drop an established call', async () => {
      const busy = await provisioner.createInboundTrunk(byCredentials);
      const idle = await provisioner.createOutboundTrunk(direct);
      expect(await provisioner.trunkHasActiveCalls(busy)).toBe(false);

      const hangUp = provider.startCall(busy);
      expect(await provisioner.trunkHasActiveCalls(busy)).toBe(true);
      expect(await provisioner.trunkHasActiveCalls(idle)).toBe(false);

      hangUp();
      expect(await provisioner.trunkHasActiveCalls(busy)).toBe(false);
    });
  });
}
