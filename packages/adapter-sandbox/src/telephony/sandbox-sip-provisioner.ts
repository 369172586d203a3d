import { createHmac, randomBytes } from 'node:crypto';
import { InboundTrunkSpec, OutboundTrunkSpec, SipProvisioner, TrunkOwner } from '@voiceplane/application';
import { ArmedFaults } from './armed-faults';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `prefix` + 12 base62 characters derived from (seed, sequence number): same seed, same ids. */
export function sandboxId(prefix: string, seed: string, sequence: number): string {
  const digest = createHmac('sha256', seed).update(`${prefix}${sequence}`).digest();
  let out = prefix;
  for (let i = 0; i < 12; i++) out += BASE62[digest[i] % 62];
  return out;
}

export interface SandboxTrunk {
  readonly id: string;
  readonly direction: 'inbound' | 'outbound';
  readonly owner: TrunkOwner;
  readonly phoneNumber: string;
  readonly username: string;
  readonly password: string;
  /** Inbound only. */
  readonly authorization: 'auth' | 'ip' | null;
  readonly allowedAddresses: readonly string[];
  /** Outbound only. */
  readonly address: string | null;
  readonly viaFixedEgress: boolean;
}

export interface SandboxRoute {
  readonly id: string;
  readonly owner: TrunkOwner;
  readonly phoneNumber: string;
  readonly trunkId: string;
}

/**
 * The SIP provisioner simulated in memory: trunk ids `ST_` + 12 base62, route ids
 * `SDR_` + 12; never fails unless a fault is armed through the sandbox fault route. It keeps a real provider's integrity
 * rules — a route needs an existing inbound trunk and a trunk in use by a route cannot be deleted —
 * so an ordering mistake in make-before-break shows up as a failure here too.
 */
export class SandboxSipProvisioner implements SipProvisioner {
  /** Arm with `faults.arm({ accountId, targetId, count, after })`. */
  readonly faults = new ArmedFaults('sip_provisioning');
  private readonly trunkTable = new Map<string, SandboxTrunk>();
  private readonly routeTable = new Map<string, SandboxRoute>();
  private readonly callsOnTrunk = new Map<string, number>();
  private sequence = 0;

  /** Pass a fixed seed for reproducible ids; the default differs per process so ids never repeat. */
  constructor(private readonly seed: string = randomBytes(16).toString('hex')) {}

  async createInboundTrunk(spec: InboundTrunkSpec): Promise<string> {
    this.faults.check(spec.owner);
    const id = this.nextId('ST_');
    this.trunkTable.set(id, {
      id,
      direction: 'inbound',
      owner: spec.owner,
      phoneNumber: spec.phoneNumber,
      username: spec.credentials.username,
      password: spec.credentials.password,
      authorization: spec.authorization,
      allowedAddresses: [...spec.allowedAddresses],
      address: null,
      viaFixedEgress: false,
    });
    return id;
  }

  async createOutboundTrunk(spec: OutboundTrunkSpec): Promise<string> {
    this.faults.check(spec.owner);
    const id = this.nextId('ST_');
    this.trunkTable.set(id, {
      id,
      direction: 'outbound',
      owner: spec.owner,
      phoneNumber: spec.phoneNumber,
      username: spec.credentials.username,
      password: spec.credentials.password,
      authorization: null,
      allowedAddresses: [],
      address: spec.address,
      viaFixedEgress: spec.viaFixedEgress,
    });
    return id;
  }

  async routeInboundCalls(owner: TrunkOwner, phoneNumber: string, inboundTrunkId: string): Promise<string> {
    this.faults.check(owner);
    this.requireInbound(inboundTrunkId);
    const id = this.nextId('SDR_');
    this.routeTable.set(id, { id, owner, phoneNumber, trunkId: inboundTrunkId });
    return id;
  }

  async pointInboundRoute(routeId: string, inboundTrunkId: string): Promise<void> {
    const route = this.routeTable.get(routeId);
    this.faults.check(route?.owner ?? null);
    if (!route) throw new Error(`Sandbox route ${routeId} does not exist.`);
    this.requireInbound(inboundTrunkId);
    this.routeTable.set(routeId, { ...route, trunkId: inboundTrunkId });
  }

  async deleteInboundRoute(routeId: string): Promise<void> {
    this.faults.check(this.routeTable.get(routeId)?.owner ?? null);
    this.routeTable.delete(routeId);
  }

  async deleteTrunk(trunkId: string): Promise<void> {
    const trunk = this.trunkTable.get(trunkId);
    if (!trunk) return;
    this.faults.check(trunk.owner);
    const user = [...this.routeTable.values()].find((r) => r.trunkId === trunkId);
    if (user) throw new Error(`Sandbox trunk ${trunkId} is still used by route ${user.id}.`);
    this.trunkTable.delete(trunkId);
    this.callsOnTrunk.delete(trunkId);
  }

  async trunkHasActiveCalls(trunkId: string): Promise<boolean> {
    return (this.callsOnTrunk.get(trunkId) ?? 0) > 0;
  }

  /** Simulates established calls on a trunk (`count` 0 ends them). */
  setActiveCalls(trunkId: string, count: number): void {
    this.callsOnTrunk.set(trunkId, count);
  }

  trunk(id: string): SandboxTrunk | undefined {
    return this.trunkTable.get(id);
  }

  route(id: string): SandboxRoute | undefined {
    return this.routeTable.get(id);
  }

  /** Every trunk that exists, optionally of one account. */
  trunks(accountId?: number): SandboxTrunk[] {
    return [...this.trunkTable.values()].filter((t) => accountId === undefined || t.owner.accountId === accountId);
  }

  routes(accountId?: number): SandboxRoute[] {
    return [...this.routeTable.values()].filter((r) => accountId === undefined || r.owner.accountId === accountId);
  }

  private requireInbound(trunkId: string): void {
    if (this.trunkTable.get(trunkId)?.direction !== 'inbound')
      throw new Error(`Sandbox inbound trunk ${trunkId} does not exist.`);
  }

  private nextId(prefix: string): string {
    this.sequence += 1;
    return sandboxId(prefix, this.seed, this.sequence);
  }
}
