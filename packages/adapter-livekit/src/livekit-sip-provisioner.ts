import type {
  RoomServiceClient,
  SipClient,
  CreateSipOutboundTrunkOptions,
  SipDispatchRuleUpdateOptions,
} from 'livekit-server-sdk';
import { livekitSdk } from './livekit-sdk';
import {
  ChatappCallingTrunks,
  ChatappCallingTrunkSpec,
  InboundTrunkSpec,
  OutboundTrunkSpec,
  SipProvisioner,
  TrunkOwner,
} from '@voiceplane/application';

export interface LiveKitSipOptions {
  /** `https://<project>.livekit.cloud`, or a self-hosted server (ws/wss URLs are accepted). */
  readonly url: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /**
   * Host or IP of the fixed-egress SIP proxy. Outbound trunks with `outbound_proxy` send their
   * INVITEs there and name the carrier in `X-Voiceplane-Carrier`; the proxy dials out from its
   * fixed address.
   */
  readonly sipEgressIp: string | null;
  /** Per request, seconds (default 10). */
  readonly requestTimeoutSeconds?: number;
  /** The voice agent every inbound call's room dispatches (explicit dispatch); none: rooms get no agent. */
  readonly agentName?: string | null;
}

/** Rooms created by our dispatch rules start with this; the voice runtime joins them. */
export const CALL_ROOM_PREFIX = 'vp-call-';
export const CARRIER_HEADER = 'X-Voiceplane-Carrier';
// SIPTransport.SIP_TRANSPORT_AUTO; the enum itself is not exported by the SDK.
const TRANSPORT_AUTO = 0 as CreateSipOutboundTrunkOptions['transport'];
// SIPTransport.SIP_TRANSPORT_TLS and SIPMediaEncryption.SIP_MEDIA_ENCRYPT_REQUIRE (same reason).
const TRANSPORT_TLS = 3 as CreateSipOutboundTrunkOptions['transport'];
const SRTP_REQUIRED = 2 as CreateSipOutboundTrunkOptions['mediaEncryption'];
/** WhatsApp Business Calling's SIP domain: business-initiated calls are INVITEs to `sip:+<customer>@wa.meta.vc`. */
export const WHATSAPP_SIP_DOMAIN = 'wa.meta.vc';

const metadataOf = (owner: TrunkOwner) =>
  JSON.stringify({ voiceplane: { account_id: owner.accountId, phone_number_id: owner.phoneNumberId } });

function isNotFound(e: unknown): boolean {
  return e instanceof livekitSdk().TwirpError && (e.status === 404 || e.code === 'not_found');
}

/**
 * The SIP provisioner on LiveKit (livekit-server-sdk, Twirp API):
 * - inbound trunk: the number, and either digest credentials (`auth`) or the allowed source
 *   addresses (`ip`);
 * - outbound trunk: the carrier address, the number and the credentials (or the egress proxy);
 * - inbound route: one dispatch rule per number, putting each caller in its own `vp-call-` room
 *   and tagging the participant with the phone-number id.
 * Deleting something LiveKit no longer knows succeeds.
 */
export class LiveKitSipProvisioner implements SipProvisioner, ChatappCallingTrunks {
  private readonly sip: SipClient;
  private readonly rooms: RoomServiceClient;

  constructor(private readonly options: LiveKitSipOptions) {
    const client = { requestTimeout: options.requestTimeoutSeconds ?? 10 };
    this.sip = new (livekitSdk().SipClient)(options.url, options.apiKey, options.apiSecret, client);
    this.rooms = new (livekitSdk().RoomServiceClient)(options.url, options.apiKey, options.apiSecret, client);
  }

  async createInboundTrunk(spec: InboundTrunkSpec): Promise<string> {
    const byCredentials = spec.authorization === 'auth';
    const trunk = await this.sip.createSipInboundTrunk(`vp-${spec.owner.phoneNumberId}-in`, [spec.phoneNumber], {
      metadata: metadataOf(spec.owner),
      authUsername: byCredentials ? spec.credentials.username : undefined,
      authPassword: byCredentials ? spec.credentials.password : undefined,
      allowedAddresses: byCredentials ? undefined : [...spec.allowedAddresses],
    });
    return trunk.sipTrunkId;
  }

  async createOutboundTrunk(spec: OutboundTrunkSpec): Promise<string> {
    let address = spec.address;
    let headers: Record<string, string> | undefined;
    if (spec.viaFixedEgress) {
      if (!this.options.sipEgressIp)
        throw new Error('outbound_proxy needs LIVEKIT_SIP_EGRESS_IP (the fixed-egress SIP proxy).');
      address = this.options.sipEgressIp;
      headers = { [CARRIER_HEADER]: spec.address };
    }
    const trunk = await this.sip.createSipOutboundTrunk(
      `vp-${spec.owner.phoneNumberId}-out`,
      address,
      [spec.phoneNumber],
      {
        transport: TRANSPORT_AUTO,
        metadata: metadataOf(spec.owner),
        authUsername: spec.credentials.username,
        authPassword: spec.credentials.password,
        headers,
      },
    );
    return trunk.sipTrunkId;
  }

  /**
   * A chat-app sender's trunk to WhatsApp's SIP edge: TLS signalling (Meta accepts nothing else),
   * SRTP required (keys by SDES, as the number's calling settings ask), digest credentials of the
   * business number and the password Meta issued for it.
   */
  async createChatappCallingTrunk(spec: ChatappCallingTrunkSpec): Promise<string> {
    const trunk = await this.sip.createSipOutboundTrunk(
      `vp-chatapp-${spec.senderId}-out`,
      WHATSAPP_SIP_DOMAIN,
      [spec.phoneNumber],
      {
        transport: TRANSPORT_TLS,
        mediaEncryption: SRTP_REQUIRED,
        metadata: JSON.stringify({ voiceplane: { account_id: spec.accountId, chatapp_sender_id: spec.senderId } }),
        authUsername: spec.phoneNumber,
        authPassword: spec.sipPassword,
      },
    );
    return trunk.sipTrunkId;
  }

  async routeInboundCalls(owner: TrunkOwner, phoneNumber: string, inboundTrunkId: string): Promise<string> {
    const rule = await this.sip.createSipDispatchRule(
      { type: 'individual', roomPrefix: CALL_ROOM_PREFIX },
      {
        name: `vp-${owner.phoneNumberId}`,
        metadata: metadataOf(owner),
        trunkIds: [inboundTrunkId],
        attributes: {
          'voiceplane.phone_number_id': String(owner.phoneNumberId),
          'voiceplane.phone_number': phoneNumber,
        },
        // The caller's room dispatches the voice agent, which asks the control plane who answers.
        roomConfig: this.options.agentName
          ? new (livekitSdk().RoomConfiguration)({
              agents: [new (livekitSdk().RoomAgentDispatch)({ agentName: this.options.agentName })],
            })
          : undefined,
      },
    );
    return rule.sipDispatchRuleId;
  }

  async pointInboundRoute(routeId: string, inboundTrunkId: string): Promise<void> {
    // A field update replaces only the trunk list, atomically; ListUpdate is not exported by the
    // SDK, and its plain form is what the request carries anyway.
    const trunkIds = { set: [inboundTrunkId] } as unknown as SipDispatchRuleUpdateOptions['trunkIds'];
    await this.sip.updateSipDispatchRuleFields(routeId, { trunkIds });
  }

  async deleteInboundRoute(routeId: string): Promise<void> {
    try {
      await this.sip.deleteSipDispatchRule(routeId);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  async deleteTrunk(trunkId: string): Promise<void> {
    try {
      await this.sip.deleteSipTrunk(trunkId);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }

  async trunkHasActiveCalls(trunkId: string): Promise<boolean> {
    const rooms = (await this.rooms.listRooms()).filter((r) => r.name.startsWith(CALL_ROOM_PREFIX));
    for (const room of rooms) {
      const participants = await this.rooms.listParticipants(room.name);
      if (participants.some((p) => p.attributes?.['sip.trunkID'] === trunkId)) return true;
    }
    return false;
  }
}
