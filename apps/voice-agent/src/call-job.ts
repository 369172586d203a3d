import type { voice } from '@livekit/agents';
import type { RuntimeConfig } from '@voiceplane/domain';
import { CallHold, type CallLine, type Log } from './call-hold';
import type { Clock } from './call-reporter';
import type { ControlPlane } from './control-plane';
import type { ProviderEnv } from './build-session';
import type { ProviderWatchLimits } from './provider-watch';

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

/** One call of a job, held from its config to the `ended` report by its `CallHold`. */
export function holdCall(job: CallJob): Promise<Held> {
  return new CallHold(job).open();
}
