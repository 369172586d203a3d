import type { AgentDispatchClient, SipClient } from 'livekit-server-sdk';
import { livekitSdk } from '../livekit-sdk';
import { CallerLine, dialledNumber } from '@voiceplane/domain';
import { CallToPlace, VoiceRuntime } from '@voiceplane/application';
import { CALL_ROOM_PREFIX } from '../livekit-sip-provisioner';

export interface LiveKitVoiceRuntimeOptions {
  /** `https://<project>.livekit.cloud`, or a self-hosted server (ws/wss URLs are accepted). */
  readonly url: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** The agent registered for explicit dispatch; it fetches the call's config from the runtime ingress. */
  readonly agentName: string;
  /**
   * Outbound trunk for lines that are not SIP trunks of the account (purchased numbers, the
   * platform line); null: such calls are refused.
   */
  readonly providerTrunkId: string | null;
  /** The line calls leave from when their assistant has no number; null: make_call refuses them. */
  readonly platformLine: CallerLine | null;
  /** Per request, seconds (default 10). */
  readonly requestTimeoutSeconds?: number;
}

export const DEFAULT_AGENT_NAME = 'voiceplane-assistant';

/** One room per outbound call, beside the `vp-call-` rooms inbound dispatch rules create. */
export const outboundRoomOf = (callId: number): string => `${CALL_ROOM_PREFIX}out-${callId}`;
export const customerIdentityOf = (callId: number): string => `customer-${callId}`;

/** What the dispatch (and the customer's participant) carries: the voice agent reads the call id from it. */
export const dispatchMetadataOf = (call: { callId: number; userId: number }): string =>
  JSON.stringify({ voiceplane: { call_id: call.callId, account_id: call.userId, direction: 'outbound' } });

/** The call a dispatch names; null for dispatches without one (inbound calls, which SIP dispatch rules start). */
export function callIdOfDispatch(metadata: string | undefined): number | null {
  try {
    const id = (JSON.parse(metadata ?? '') as { voiceplane?: { call_id?: unknown } }).voiceplane?.call_id;
    return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

/**
 * The voice runtime on LiveKit (livekit-server-sdk, Twirp API). Placing a call dispatches the
 * assistant agent into a fresh room, then dials the customer into it as a SIP participant through
 * the line's outbound trunk. The agent reports ringing, answer, transcript and end through the
 * runtime ingress (`/api/runtime/calls/{id}/...`), where it also reads the call's configuration.
 */
export class LiveKitVoiceRuntime implements VoiceRuntime {
  readonly platformLine: CallerLine | null;
  private readonly dispatches: AgentDispatchClient;
  private readonly sip: SipClient;

  constructor(private readonly options: LiveKitVoiceRuntimeOptions) {
    const client = { requestTimeout: options.requestTimeoutSeconds ?? 10 };
    this.platformLine = options.platformLine;
    this.dispatches = new (livekitSdk().AgentDispatchClient)(options.url, options.apiKey, options.apiSecret, client);
    this.sip = new (livekitSdk().SipClient)(options.url, options.apiKey, options.apiSecret, client);
  }

  async placeCall(call: CallToPlace): Promise<void> {
    const trunkId = call.line.sip?.outboundTrunkId ?? this.options.providerTrunkId;
    if (!trunkId) throw new Error(`No outbound trunk can carry calls from ${call.line.phoneNumber}.`);
    const room = outboundRoomOf(call.callId);
    const metadata = dispatchMetadataOf(call);
    const dispatch = await this.dispatches.createDispatch(room, this.options.agentName, { metadata });
    try {
      await this.sip.createSipParticipant(
        trunkId,
        dialledNumber(call.customerPhone, call.line.sip?.callingFormat ?? '+e164'),
        room,
        {
          fromNumber: call.line.phoneNumber,
          participantIdentity: customerIdentityOf(call.callId),
          participantName: 'Customer',
          participantMetadata: metadata,
          ringingTimeout: call.ringingTimeSeconds,
          maxCallDuration: call.maxDurationSeconds,
          // Returns once the INVITE is out; ringing and answer arrive as runtime events.
          waitUntilAnswered: false,
        },
      );
    } catch (e) {
      // Without a customer the agent would sit in an empty room: take the dispatch back.
      await this.dispatches.deleteDispatch(dispatch.id, room).catch(() => undefined);
      throw e;
    }
  }
}
