import { voice } from '@livekit/agents';
import type { RuntimeConfig } from '@voiceplane/domain';
import { CallHold, type CallLine, type Log } from './call-hold';
import { CallReporter, type Clock } from './call-reporter';
import type { ControlPlane } from './control-plane';
import { loadModels, sessionOptions, type ProviderEnv } from './build-session';
import type { ProviderWatchLimits } from './provider-watch';
import { planSpeech } from './speech-plan';

export interface CallJob {
  readonly callId: number;
  readonly config: RuntimeConfig;
  readonly env: ProviderEnv;
  readonly controlPlane: ControlPlane;
  readonly line: CallLine;
  readonly clock: Clock;
  readonly log: Log;
  /** Starts the session: in a room for real calls, on its own in text mode. */
  readonly start: (session: voice.AgentSession, agent: voice.Agent) => Promise<void>;
  /** Text mode: the LLM only, no transcriber, synthesizer or VAD. */
  readonly textOnly?: boolean;
  /** Retries of the providers (the default is LiveKit's). */
  readonly llmConnOptions?: ConnOptions;
  readonly sttConnOptions?: ConnOptions;
  readonly ttsConnOptions?: ConnOptions;
  /** When a quiet transcriber or synthesizer counts as failed (the default: `PROVIDER_WATCH_LIMITS`). */
  readonly watchLimits?: ProviderWatchLimits;
}

type ConnOptions = { maxRetry?: number; retryIntervalMs?: number; timeoutMs?: number };

export type Held =
  | { readonly ok: true; readonly hold: CallHold; readonly session: voice.AgentSession }
  | { readonly ok: false; readonly problems: readonly string[] };

/**
 * From a call's config to a running session, or — when the config cannot be run (unknown voice,
 * unsupported provider, missing key, a plugin that does not load) — to the call ended `failed`
 * with `configuration_error` at once, never a silent line.
 */
export async function holdCall(job: CallJob): Promise<Held> {
  const reporter = new CallReporter(job.callId, job.controlPlane, job.clock, (event, e) =>
    job.log.error({ err: e, event: event.event_id }, 'a call event could not be reported'),
  );
  const refuse = async (problems: readonly string[]): Promise<Held> => {
    job.log.error({ call_id: job.callId, problems }, 'the call cannot be held with this configuration');
    await reporter.ended({ status: 'failed', reason: 'configuration_error' });
    await job.line.hangUp().catch(() => undefined);
    return { ok: false, problems };
  };

  const planned = planSpeech(job.config, job.env.keys);
  if (!planned.ok) return refuse(planned.problems);
  const { plan } = planned;
  let models;
  try {
    models = await loadModels(plan, job.env, { textOnly: job.textOnly });
  } catch (e) {
    return refuse([`a speech plugin could not be loaded: ${(e as Error).message}`]);
  }
  const session = new voice.AgentSession({
    ...sessionOptions(plan, models),
    // The agent decides what an unrecoverable LLM/TTS error means (one apology, then the end), not the session.
    connOptions: {
      maxUnrecoverableErrors: 1000,
      llmConnOptions: job.llmConnOptions,
      sttConnOptions: job.sttConnOptions,
      ttsConnOptions: job.ttsConnOptions,
    },
  });
  const hold = new CallHold({
    callId: job.callId,
    config: job.config,
    plan,
    controlPlane: job.controlPlane,
    reporter,
    line: job.line,
    clock: job.clock,
    log: job.log,
    watchLimits: job.watchLimits,
    speechFor: async (next) => {
      const nextPlan = planSpeech(next, job.env.keys);
      if (!nextPlan.ok) return {};
      const m = await loadModels(nextPlan.plan, job.env, { textOnly: job.textOnly });
      return { llm: m.llm, ...(m.tts ? { tts: m.tts } : {}) };
    },
  });
  hold.attach(session);
  try {
    await job.start(session, hold.agentFor(job.config));
  } catch (e) {
    return refuse([`the session did not start: ${(e as Error).message}`]);
  }
  return { ok: true, hold, session };
}
