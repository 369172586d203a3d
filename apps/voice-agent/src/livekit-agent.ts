import { defineAgent, log, voice, type JobContext } from '@livekit/agents';
import { RoomEvent, type RemoteParticipant } from '@livekit/rtc-node';
import { SipClient } from 'livekit-server-sdk';
import { callIdOfDispatch, customerIdentityOf, startCallRecording } from '@voiceplane/adapter-livekit';
import { recordingUrlOf, type RuntimeConfig } from '@voiceplane/domain';
import type { CallHold, Log } from './call-hold';
import { prewarmSpeech } from './build-session';
import { holdCall } from './call-job';
import { ControlPlane, ControlPlaneError } from './control-plane';
import { readAgentEnv, type AgentEnv } from './env';
import { LiveKitLine } from './livekit-line';

const SIP_STATUS = 'sip.callStatus';

/** The inbound route's question, from the attributes LiveKit SIP gives the caller's participant. */
export function inboundCallOf(a: Readonly<Record<string, string>>): {
  to: string;
  from: string;
  trunk_id?: string;
  provider_call_id?: string;
} {
  return {
    to: a['sip.trunkPhoneNumber'] ?? '',
    from: a['sip.phoneNumber'] ?? '',
    ...(a['sip.trunkID'] ? { trunk_id: a['sip.trunkID'] } : {}),
    // The SIP call id makes a restarted job's request return the same call.
    ...(a['sip.callID'] ? { provider_call_id: a['sip.callID'] } : {}),
  };
}
/** Beyond `ringing_time` LiveKit itself gives up; this only covers a participant that never appears. */
const RINGING_GRACE_S = 15;

/**
 * One LiveKit job = one call. Outbound: the dispatch metadata names the call and the control plane
 * dials the customer into the room. Inbound: a SIP dispatch rule put the caller in a fresh room and
 * dispatched this agent; the agent asks the control plane which assistant answers the number.
 */
export default defineAgent({
  // Once per job process, before its call: plugins and the Silero model, so the greeting does not wait for them.
  prewarm: () => prewarmSpeech(),
  entry: async (ctx: JobContext) => {
    const checked = readAgentEnv(process.env);
    if (!checked.ok) throw new Error(`voice agent misconfigured: ${checked.problems.join('; ')}`);
    const env = checked.env;
    const logger = log().child({ room: ctx.job.room?.name }) as unknown as Log;
    const controlPlane = new ControlPlane(env.controlPlaneUrl, env.runtimeToken);
    const sip = new SipClient(env.livekit.url, env.livekit.apiKey, env.livekit.apiSecret);
    await ctx.connect();

    const outboundCall = callIdOfDispatch(ctx.job.metadata);
    let call: { callId: number; config: RuntimeConfig; customerIdentity: string };
    if (outboundCall !== null) {
      let config: RuntimeConfig;
      try {
        config = await controlPlane.callConfig(outboundCall);
      } catch (e) {
        // Unknown call or an unreachable control plane (after retries): nobody may hear a silent line.
        logger.error({ err: e, call_id: outboundCall }, "the call's config could not be read");
        await ctx.deleteRoom();
        return;
      }
      call = { callId: outboundCall, config, customerIdentity: customerIdentityOf(outboundCall) };
    } else {
      const caller = await ctx.waitForParticipant();
      try {
        const accepted = await controlPlane.acceptInbound(inboundCallOf(caller.attributes));
        call = { ...accepted, customerIdentity: caller.identity };
      } catch (e) {
        // No active assistant on the number, or no balance: the caller is not left on a silent line.
        logger.warn(
          { err: e, status: e instanceof ControlPlaneError ? e.status : null },
          'inbound call refused by the control plane',
        );
        await ctx.deleteRoom();
        return;
      }
    }

    const line = new LiveKitLine({
      ctx,
      sip,
      customerIdentity: call.customerIdentity,
      log: logger,
      outboundTrunkId: call.config.sip?.outbound_trunk_id ?? env.outboundTrunkId,
      callerNumber: call.config.assistant_phone,
    });
    const held = await holdCall({
      callId: call.callId,
      config: call.config,
      env,
      controlPlane,
      line,
      clock: { now: () => new Date() },
      log: logger,
      // The recording is the room's egress (below), not LiveKit Cloud's session recording.
      start: (session, agent) =>
        session.start({
          agent,
          room: ctx.room,
          inputOptions: { participantIdentity: call.customerIdentity },
          record: false,
        }),
    });
    if (!held.ok) return;
    const { hold, session } = held;
    ctx.addShutdownCallback(() => hold.end({ status: 'completed', reason: 'customer_hangup' }));

    await hold.run({
      answer: async () =>
        outboundCall === null || waitForAnswer(ctx, hold, call.customerIdentity, call.config.assistant.ringing_time),
      answered: async () => {
        if (call.config.assistant.record) await record(env, ctx.room.name ?? '', call.callId, hold, logger);
        await startLineExtras(ctx, session, hold, call, outboundCall !== null);
      },
    });
  },
});

/** Outbound: follows the customer's SIP status until they pick up, or reports why they never did. */
export function waitForAnswer(
  ctx: Pick<JobContext, 'room'>,
  hold: Pick<CallHold, 'customerRinging' | 'end'>,
  identity: string,
  ringingS: number,
): Promise<boolean> {
  const room = ctx.room;
  return new Promise((resolve) => {
    let last = '';
    const finish = (answered: boolean) => {
      clearTimeout(timer);
      room.off(RoomEvent.ParticipantAttributesChanged, onAttributes);
      room.off(RoomEvent.ParticipantConnected, onParticipant);
      room.off(RoomEvent.ParticipantDisconnected, onLeft);
      resolve(answered);
    };
    const onStatus = (status: string | undefined) => {
      if (!status || status === last) return;
      last = status;
      if (status === 'ringing') void hold.customerRinging();
      if (status === 'active') finish(true);
    };
    const onAttributes = (
      _changed: Record<string, string>,
      p: { identity: string; attributes: Record<string, string> },
    ) => {
      if (p.identity === identity) onStatus(p.attributes[SIP_STATUS]);
    };
    const onParticipant = (p: RemoteParticipant) => {
      if (p.identity === identity) onStatus(p.attributes[SIP_STATUS]);
    };
    const onLeft = (p: RemoteParticipant) => {
      if (p.identity !== identity) return;
      void hold.end(
        last === 'ringing' ? { status: 'no-answer', reason: 'no_answer' } : { status: 'failed', reason: 'dial_failed' },
      );
      finish(false);
    };
    const timer = setTimeout(
      () => {
        void hold.end({ status: 'no-answer', reason: 'no_answer' });
        finish(false);
      },
      (ringingS + RINGING_GRACE_S) * 1000,
    );
    room.on(RoomEvent.ParticipantAttributesChanged, onAttributes);
    room.on(RoomEvent.ParticipantConnected, onParticipant);
    room.on(RoomEvent.ParticipantDisconnected, onLeft);
    const present = room.remoteParticipants.get(identity);
    if (present) onParticipant(present);
  });
}

/**
 * `record`: the room's egress into the media store from the answer on. A recording that cannot be
 * started (no bucket configured, LiveKit refuses) is logged and the call goes on without one.
 */
export async function record(
  env: Pick<AgentEnv, 'livekit' | 'recording'>,
  room: string,
  callId: number,
  hold: Pick<CallHold, 'recording'>,
  logger: Log,
): Promise<void> {
  if (env.recording === null) {
    logger.warn(
      { call_id: callId },
      'the assistant records calls, but no S3 media store and PUBLIC_BASE_URL are configured: not recorded',
    );
    return;
  }
  try {
    const egress = await startCallRecording(env.livekit, room, callId, env.recording.storage);
    logger.info({ call_id: callId, egress_id: egress.egressId }, 'recording the call');
    hold.recording(recordingUrlOf(env.recording.publicBaseUrl, callId));
  } catch (e) {
    logger.warn({ call_id: callId, err: e }, 'the recording could not be started; the call goes on without one');
  }
}

/** What only a real line has: ambient sound, and voicemail detection on outbound calls. */
async function startLineExtras(
  ctx: JobContext,
  session: voice.AgentSession,
  hold: CallHold,
  call: { config: RuntimeConfig; customerIdentity: string },
  outbound: boolean,
): Promise<void> {
  const a = call.config.assistant;
  if (a.ambient_sound === 'office') {
    const player = new voice.BackgroundAudioPlayer({
      ambientSound: { source: voice.BuiltinAudioClip.OFFICE_AMBIENCE, volume: a.ambient_sound_volume },
    });
    await player.start({ room: ctx.room, agentSession: session }).catch(() => undefined);
  }
  if (outbound && a.end_call_on_voicemail) {
    const amd = new voice.AMD(session, {
      llm: null,
      stt: null,
      participantIdentity: call.customerIdentity,
      interruptOnMachine: true,
    });
    void amd
      .execute()
      .then((verdict) => {
        if (verdict.category === voice.AMDCategory.MACHINE_VM) void hold.reachedVoicemail();
      })
      .catch(() => undefined);
  }
}
