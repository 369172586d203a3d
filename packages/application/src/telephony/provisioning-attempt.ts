import { SipTrunkSettings } from '@voiceplane/domain';
import { InboundTrunkSpec, OutboundTrunkSpec, SipProvisioner, TrunkOwner } from './ports';
import { ProvisioningCleanup } from './provisioning-cleanup';

export function inboundSpec(owner: TrunkOwner, s: SipTrunkSettings): InboundTrunkSpec {
  return {
    owner,
    phoneNumber: s.phoneNumber,
    credentials: { username: s.sipUsername, password: s.sipPassword },
    authorization: s.inboundAuthorizationType,
    allowedAddresses: s.allowedInboundIps ?? [],
  };
}

export function outboundSpec(owner: TrunkOwner, s: SipTrunkSettings): OutboundTrunkSpec {
  return {
    owner,
    phoneNumber: s.phoneNumber,
    credentials: { username: s.sipUsername, password: s.sipPassword },
    address: s.sipAddress,
    viaFixedEgress: s.outboundProxy,
  };
}

/**
 * Provider changes made for one request, remembered so they can be taken back when a later step
 * fails. The undo restores routing before deleting anything, so calls never reach a deleted trunk.
 */
export class ProvisioningAttempt {
  private readonly createdTrunks: string[] = [];
  private createdRoute: string | null = null;
  private movedRoute: { readonly routeId: string; readonly previousTrunkId: string } | null = null;

  constructor(
    private readonly provisioner: SipProvisioner,
    private readonly cleanup: ProvisioningCleanup,
  ) {}

  async createInboundTrunk(spec: InboundTrunkSpec): Promise<string> {
    const id = await this.provisioner.createInboundTrunk(spec);
    this.createdTrunks.push(id);
    return id;
  }

  async createOutboundTrunk(spec: OutboundTrunkSpec): Promise<string> {
    const id = await this.provisioner.createOutboundTrunk(spec);
    this.createdTrunks.push(id);
    return id;
  }

  async routeInboundCalls(owner: TrunkOwner, phoneNumber: string, trunkId: string): Promise<string> {
    this.createdRoute = await this.provisioner.routeInboundCalls(owner, phoneNumber, trunkId);
    return this.createdRoute;
  }

  async moveRoute(routeId: string, toTrunkId: string, fromTrunkId: string): Promise<void> {
    // Remembered before the call: a timed-out request may still have moved the route.
    this.movedRoute = { routeId, previousTrunkId: fromTrunkId };
    await this.provisioner.pointInboundRoute(routeId, toTrunkId);
  }

  /** Takes everything back; what the provider refuses now is queued for the clean-up job. */
  async undo(): Promise<void> {
    const trunks = [...this.createdTrunks];
    if (this.movedRoute) {
      const { routeId, previousTrunkId } = this.movedRoute;
      try {
        await this.provisioner.pointInboundRoute(routeId, previousTrunkId);
      } catch {
        // The new trunks stay until the route is back on the old one.
        await this.cleanup.defer([
          { action: 'point_route', resourceId: routeId, targetTrunkId: previousTrunkId, releaseTrunkIds: trunks },
        ]);
        return;
      }
    }
    if (this.createdRoute) {
      try {
        await this.provisioner.deleteInboundRoute(this.createdRoute);
      } catch {
        await this.cleanup.defer([{ action: 'delete_route', resourceId: this.createdRoute, releaseTrunkIds: trunks }]);
        return;
      }
    }
    const leftovers: string[] = [];
    for (const id of trunks) {
      try {
        await this.provisioner.deleteTrunk(id);
      } catch {
        leftovers.push(id);
      }
    }
    if (leftovers.length > 0)
      await this.cleanup.defer(leftovers.map((id) => ({ action: 'delete_trunk' as const, resourceId: id })));
  }
}
