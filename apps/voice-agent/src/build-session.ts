import { tts as ttsTypes, voice, type llm as llmTypes, type stt as sttTypes, type VAD } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import type { AgentEnv } from './env';
import type { SpeechPlan } from './speech-plan';

/**
 * The models a plan needs, as plugin instances. Plugins are loaded only when a call needs them:
 * a deployment that never uses Cartesia never loads it, and the Silero VAD (onnxruntime, a native
 * library) is loaded only for calls that detect turns locally.
 */
export interface SessionModels {
  readonly stt?: sttTypes.STT;
  readonly llm?: llmTypes.LLM | llmTypes.RealtimeModel;
  readonly tts?: ttsTypes.TTS;
  readonly vad?: VAD | null;
}

/** What the plugins need of the environment: keys, and the providers' addresses where they are not the defaults. */
export type ProviderEnv = Pick<AgentEnv, 'keys' | 'openaiBaseUrl'> & Partial<Pick<AgentEnv, 'baseUrls'>>;

export async function loadModels(
  plan: SpeechPlan,
  env: ProviderEnv,
  options: { textOnly?: boolean } = {},
): Promise<SessionModels> {
  const openai = async () => import('@livekit/agents-plugin-openai');
  const baseURL = env.openaiBaseUrl ?? undefined;
  let model: SessionModels['llm'];
  if (plan.llm) {
    model = new (await openai()).LLM({
      model: plan.llm.model,
      temperature: plan.llm.temperature,
      apiKey: env.keys.openai ?? undefined,
      baseURL,
    });
  } else if (plan.realtime) {
    const r = plan.realtime;
    model = new (await openai()).realtime.RealtimeModel({
      model: r.model,
      voice: r.voice ?? undefined,
      speed: r.speed,
      apiKey: env.keys.openai ?? undefined,
      baseURL,
      // dualplex: the realtime model writes, the assistant's synthesizer speaks.
      modalities: plan.engine === 'dualplex' ? ['text'] : ['text', 'audio'],
      inputAudioNoiseReduction: r.noiseReduction ? { type: 'near_field' } : null,
      turnDetection:
        r.turnDetection.type === 'server_vad'
          ? {
              type: 'server_vad',
              threshold: r.turnDetection.threshold,
              silence_duration_ms: r.turnDetection.silenceMs,
              create_response: true,
              interrupt_response: plan.turns.interruptions,
            }
          : {
              type: 'semantic_vad',
              eagerness: r.turnDetection.eagerness,
              create_response: true,
              interrupt_response: plan.turns.interruptions,
            },
    });
  }
  if (options.textOnly) return { llm: model, vad: null };

  let stt: SessionModels['stt'];
  if (plan.stt) {
    const deepgram = await import('@livekit/agents-plugin-deepgram');
    stt = new deepgram.STT({
      model: plan.stt.model,
      language: plan.stt.language,
      apiKey: env.keys.deepgram ?? undefined,
      ...baseUrl('baseUrl', env.baseUrls?.deepgram),
    });
  }
  let tts: SessionModels['tts'];
  if (plan.tts?.provider === 'elevenlabs') {
    const elevenlabs = await import('@livekit/agents-plugin-elevenlabs');
    tts = new elevenlabs.TTS({
      apiKey: env.keys.elevenlabs ?? undefined,
      voiceId: plan.tts.voiceId,
      language: plan.tts.language,
      ...baseUrl('baseURL', env.baseUrls?.elevenlabs),
      voiceSettings: {
        stability: plan.tts.stability,
        similarity_boost: plan.tts.similarity,
        speed: plan.tts.speed,
        ...(plan.tts.style === null ? {} : { style: plan.tts.style }),
      },
    });
  } else if (plan.tts?.provider === 'cartesia') {
    const cartesia = await import('@livekit/agents-plugin-cartesia');
    tts = new cartesia.TTS({
      apiKey: env.keys.cartesia ?? undefined,
      voice: plan.tts.voiceId,
      language: plan.tts.language,
      speed: plan.tts.speed,
      ...baseUrl('baseUrl', env.baseUrls?.cartesia),
      ...(plan.tts.emotion === null ? {} : { emotion: [...plan.tts.emotion] }),
    });
  }
  if (tts) openEarly(tts);
  let vad: VAD | null = null;
  if (plan.vad)
    vad = await vadFor({
      activationThreshold: plan.vad.activationThreshold,
      minSilenceDuration: plan.vad.minSilenceMs,
    });
  return { stt, llm: model, tts, vad };
}

/** `VAD.load` is typed as LiveKit's base VAD; what it returns is Silero's, which takes new options. */
type Silero = VAD & { updateOptions(options: object): void };
let prewarmed: Promise<Silero> | null = null;

/**
 * Loads what every call needs before a call comes (LiveKit's `prewarm`, run once in each job
 * process while it waits for a job): the speech plugins' code and the Silero model, whose ONNX
 * session takes hundreds of milliseconds to create — time an inbound caller would otherwise wait
 * for the greeting.
 */
export async function prewarmSpeech(): Promise<void> {
  await Promise.all([
    import('@livekit/agents-plugin-openai'),
    import('@livekit/agents-plugin-deepgram'),
    import('@livekit/agents-plugin-elevenlabs'),
    import('@livekit/agents-plugin-cartesia'),
  ]);
  prewarmed ??= import('@livekit/agents-plugin-silero').then((silero) => silero.VAD.load() as Promise<Silero>);
  await prewarmed;
}

/** The prewarmed model goes to the first call of the process, set to its options; a later call loads its own. */
async function vadFor(options: { activationThreshold: number; minSilenceDuration: number }): Promise<VAD> {
  const warm = prewarmed;
  prewarmed = null;
  if (warm) {
    const vad = await warm;
    vad.updateOptions(options);
    return vad;
  }
  const silero = await import('@livekit/agents-plugin-silero');
  return silero.VAD.load(options);
}

/**
 * Opens the synthesizer's websocket now (while an outbound call rings, before an inbound call's
 * greeting) instead of on the first words: ElevenLabs connects on first use, Cartesia has a pool
 * to prewarm. A failure here is only logged by the plugin; the first words connect again.
 */
function openEarly(tts: ttsTypes.TTS): void {
  const plugin = tts as ttsTypes.TTS & { prewarm?: () => void; currentConnection?: () => Promise<unknown> };
  if (typeof plugin.prewarm === 'function') plugin.prewarm();
  else if (typeof plugin.currentConnection === 'function') void plugin.currentConnection().catch(() => undefined);
}

/** A plugin option only when set, so an unset address leaves the plugin's default in place. */
function baseUrl<K extends string>(key: K, url: string | null | undefined): Partial<Record<K, string>> {
  return url ? ({ [key]: url } as Record<K, string>) : {};
}

/** The session options of a plan: turn taking and interruptions (the models come from `loadModels`). */
export function sessionOptions(plan: SpeechPlan, models: SessionModels): voice.AgentSessionOptions {
  return {
    ...models,
    vad: models.vad ?? null,
    turnHandling: {
      turnDetection: plan.turns.detection,
      endpointing: { minDelay: plan.turns.minEndpointingDelayMs, maxDelay: plan.turns.maxEndpointingDelayMs },
      interruption: {
        enabled: plan.turns.interruptions,
        minDuration: plan.turns.minInterruptionDurationMs,
        minWords: plan.turns.minInterruptionWords,
      },
      // The model starts on the final transcript, before the turn has ended (LiveKit's default). Not
      // the synthesizer (`preemptiveTts`): with it, a synthesizer that never answers was not always
      // caught as failed before the silence rules ended the call (docs/voice-agent.md, latency).
      preemptiveGeneration: { enabled: true, preemptiveTts: false },
    },
    // The agent's own silence handling (reengagement, silence_timeout) decides when a quiet customer is gone.
    userAwayTimeout: null,
  };
}

/** A text being synthesised before it is said: its audio as it arrives, and whether any came. */
export interface SynthesizedAhead {
  readonly audio: ReadableStream<AudioFrame>;
  /** The synthesis ended, or failed, without a single frame. */
  readonly failed: boolean;
  cancel(): void;
}

/**
 * Synthesises `text` now, on the session's own synthesizer (its open websocket), buffering the
 * frames until they are played: the greeting is known from the config, so it need not wait for the
 * answer to start its synthesizer round trip. A failure after the first frame ends the audio there.
 */
export function synthesizeAhead(tts: ttsTypes.TTS, text: string): SynthesizedAhead {
  const stream = tts.stream();
  let frames = 0;
  let done = false;
  const stop = () => {
    done = true;
    stream.close();
  };
  const audio = new ReadableStream<AudioFrame>({
    start(controller) {
      void (async () => {
        try {
          stream.pushText(text);
          stream.endInput();
          for await (const ev of stream) {
            if (ev === ttsTypes.SynthesizeStream.END_OF_STREAM || done) break;
            controller.enqueue(ev.frame);
            frames += 1;
          }
        } catch {
          // Reported by the plugin as the synthesizer's error event, which the call already follows.
        } finally {
          if (!done) controller.close();
          stop();
        }
      })();
    },
    cancel: stop,
  });
  return {
    audio,
    get failed() {
      return done && frames === 0;
    },
    cancel: stop,
  };
}
