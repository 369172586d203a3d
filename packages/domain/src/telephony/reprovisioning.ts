import { SipTrunkField } from './sip-trunk';

/** Which provider trunks a change set re-creates; an untouched side keeps its id. */
export interface ReprovisionPlan {
  readonly inbound: boolean;
  readonly outbound: boolean;
}

const BOTH: ReprovisionPlan = { inbound: true, outbound: true };
const INBOUND: ReprovisionPlan = { inbound: true, outbound: false };
const OUTBOUND: ReprovisionPlan = { inbound: false, outbound: true };
const STORED_ONLY: ReprovisionPlan = { inbound: false, outbound: false };

/** The fixed re-provisioning table of the specification, one row per field. */
export const REPROVISIONING_TABLE: Readonly<Record<SipTrunkField, ReprovisionPlan>> = {
  sipUsername: BOTH,
  sipPassword: BOTH,
  sipAddress: OUTBOUND,
  phoneNumber: BOTH,
  inboundAuthorizationType: INBOUND,
  allowedInboundIps: INBOUND,
  outboundProxy: OUTBOUND,
  sipCallingFormat: STORED_ONLY,
  nickname: STORED_ONLY,
  countryCode: STORED_ONLY,
};

/** A side is re-created when any changed field marks it. */
export function reprovisionPlan(changed: readonly SipTrunkField[]): ReprovisionPlan {
  return {
    inbound: changed.some((f) => REPROVISIONING_TABLE[f].inbound),
    outbound: changed.some((f) => REPROVISIONING_TABLE[f].outbound),
  };
}
