import type { RuntimeConfig } from '@voiceplane/domain';
import type { AgentEnv } from './env';

/**
 * How one call is to be held, decided from its runtime config alone: every speech setting of the
 * assistant turned into the values the LiveKit session and its plugins take. Pure, so each field's
 * effect is tested without a room; `build-session.ts` turns a plan into plugin instances.
 */
export interface SpeechPlan {
  /** `pipeline`: transcriber → LLM → synthesizer; `realtime`: one speech-to-speech model; `dualplex`: the realtime model thinks, the synthesizer speaks. */
  readonly engine: 'pipeline' | 'realtime' | 'dualplex';
  readonly stt: { readonly provider: 'deepgram'; readonly model: string; readonly language: string } | null;
  readonly llm: { readonly provider: 'openai'; readonly model: string; readonly temperature: number } | null;
  readonly realtime: {
    readonly provider: 'openai';
    readonly model: string;
    readonly voice: string | null;
    readonly speed: number;
    readonly turnDetection:
      | { readonly type: 'server_vad'; readonly threshold: number; readonly silenceMs: number }
      | { readonly type: 'semantic_vad'; readonly eagerness: 'low' | 'medium' | 'high' };
    readonly noiseReduction: boolean;
  } | null;
  readonly tts:
    | {
        readonly provider: 'elevenlabs';
        readonly voiceId: string;
        readonly language: string;
        readonly stability: number;
        readonly similarity: number;
        readonly speed: number;
        readonly style: number | null;
      }
    | {
        readonly provider: 'cartesia';
        readonly voiceId: string;
        readonly language: string;
        readonly speed: number;
        readonly emotion: readonly string[] | null;
      }
    | null;
  /** Silero VAD for pipeline and dualplex turn taking; null with a realtime model (it hears turns itself). */
  readonly vad: { readonly activationThreshold: number; readonly minSilenceMs: number } | null;
  readonly turns: {
    readonly detection: 'vad' | 'stt' | 'realtime_llm';
    readonly minEndpointingDelayMs: number;
    readonly maxEndpointingDelayMs: number;
    readonly interruptions: boolean;
    readonly minInterruptionDurationMs: number;
    readonly minInterruptionWords: number;
  };
  /** True: the assistant speaks `initial_message` as soon as the customer is on the line. */
  readonly assistantSpeaksFirst: boolean;
  readonly limits: {
    readonly maxDurationS: number;
    readonly ringingS: number;
    readonly maxSilenceS: number;
    readonly maxInitialSilenceS: number | null;
    readonly reengagementIntervalS: number;
  };
  readonly voicemail: { readonly endCall: boolean };
  /** Played under the conversation; null: silence (or no shipped clip for that sound). */
  readonly ambient: { readonly clip: 'office'; readonly volume: number } | null;
  /** Phrases said while a tool runs; null: fillers off (or not a pipeline call). */
  readonly fillers: readonly string[] | null;
  readonly record: boolean;
}

export type PlanResult =
  | { readonly ok: true; readonly plan: SpeechPlan }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Catalogue realtime model names that differ from the provider's model id. */
const REALTIME_MODEL_IDS: Readonly<Record<string, string>> = { 'gpt-4o-realtime': 'gpt-realtime' };
const DEFAULT_FILLERS = ['One moment, please.', 'Let me check that.', 'Just a second.'];

/** Sensitivity 0–5 (0.5 by default) → a delay: the higher the sensitivity, the sooner the turn ends or the interruption counts. */
export const delayForSensitivity = (sensitivity: number, atZeroMs: number): number =>
  Math.round(atZeroMs / (1 + sensitivity));

export function planSpeech(config: RuntimeConfig, keys: AgentEnv['keys']): PlanResult {
  const a = config.assistant;
  const speech = config.speech;
  const problems: string[] = [];
  if (!speech)
    return {
      ok: false,
      problems: ['the call config has no resolved speech settings (it was stored before the voice agent existed)'],
    };
  const language = a.language ?? 'en';
  const multilingual = (a.secondary_languages ?? []).some((code) => code !== language);
  const engine = a.mode === 'multimodal' ? 'realtime' : a.mode === 'dualplex' ? 'dualplex' : 'pipeline';
  const needKey = (key: keyof AgentEnv['keys'], envName: string, what: string) => {
    if (keys[key] === null) problems.push(`${what} needs ${envName}`);
  };

  let stt: SpeechPlan['stt'] = null;
  let llm: SpeechPlan['llm'] = null;
  let realtime: SpeechPlan['realtime'] = null;
  let tts: SpeechPlan['tts'] = null;

  if (engine === 'pipeline') {
    const transcriber = speech.transcriber ?? 'deepgram';
    if (transcriber !== 'deepgram') problems.push(`transcriber ${transcriber} is not supported`);
    else needKey('deepgram', 'DEEPGRAM_API_KEY', 'the Deepgram transcriber');
    // nova-3 "multi" transcribes code-switching speech; one language is more accurate alone.
    stt = { provider: 'deepgram', model: 'nova-3', language: multilingual ? 'multi' : language };
    if (!speech.llm_model) problems.push('the assistant has no known llm_model_id');
    else if (speech.llm_model.provider !== 'openai')
      problems.push(`LLM provider ${speech.llm_model.provider} is not supported`);
    else {
      needKey('openai', 'OPENAI_API_KEY', 'the OpenAI LLM');
      llm = { provider: 'openai', model: speech.llm_model.name, temperature: a.llm_temperature };
    }
  } else {
    const model = speech.multimodal_model;
    if (!model) problems.push('the assistant has no known multimodal_model_id');
    else if (model.provider !== 'openai') problems.push(`realtime provider ${model.provider} is not supported`);
    else {
      needKey('openai', 'OPENAI_API_KEY', 'the OpenAI realtime model');
      const threshold = a.turn_detection_threshold ?? 0.5;
      realtime = {
        provider: 'openai',
        model: REALTIME_MODEL_IDS[model.name] ?? model.name,
        voice: engine === 'realtime' ? (speech.voice?.provider_voice_id ?? null) : null,
        speed: a.speech_speed,
        turnDetection:
          a.endpoint_type === 'ai'
            ? {
                type: 'semantic_vad',
                eagerness: a.endpoint_sensitivity >= 2 ? 'high' : a.endpoint_sensitivity >= 0.5 ? 'medium' : 'low',
              }
            : { type: 'server_vad', threshold, silenceMs: delayForSensitivity(a.endpoint_sensitivity, 1000) },
        noiseReduction: a.enable_noise_cancellation,
      };
    }
  }

  const voice = speech.voice;
  if (!voice) problems.push('the assistant has no known voice_id');
  else if (engine === 'realtime') {
    if (voice.provider !== null || !voice.provider_voice_id)
      problems.push(`voice ${voice.name} cannot be spoken by a realtime model`);
  } else {
    const synthesizer = speech.synthesizer ?? voice.provider;
    if (voice.provider === null)
      problems.push(`voice ${voice.name} is a realtime-model voice; this mode needs a synthesizer voice`);
    else if (!voice.provider_voice_id) problems.push(`voice ${voice.name} has no provider voice id`);
    else if (synthesizer !== voice.provider)
      problems.push(`voice ${voice.name} belongs to ${voice.provider ?? 'no synthesizer'}, not ${synthesizer}`);
    else if (synthesizer === 'elevenlabs') {
      needKey('elevenlabs', 'ELEVEN_API_KEY', 'the ElevenLabs voice');
      tts = {
        provider: 'elevenlabs',
        voiceId: voice.provider_voice_id,
        language,
        stability: a.voice_stability,
        similarity: a.voice_similarity,
        speed: a.speech_speed,
        style: a.tts_emotion_enabled ? null : 0,
      };
    } else if (synthesizer === 'cartesia') {
      needKey('cartesia', 'CARTESIA_API_KEY', 'the Cartesia voice');
      tts = {
        provider: 'cartesia',
        voiceId: voice.provider_voice_id,
        language,
        speed: a.speech_speed,
        emotion: a.tts_emotion_enabled ? null : ['neutral'],
      };
    } else problems.push(`synthesizer ${synthesizer ?? 'none'} is not supported`);
  }
  if (problems.length > 0) return { ok: false, problems };

  const endpointingMs = delayForSensitivity(a.endpoint_sensitivity, 1000);
  return {
    ok: true,
    plan: {
      engine,
      stt,
      llm,
      realtime,
      tts,
      vad:
        engine === 'realtime'
          ? null
          : { activationThreshold: a.turn_detection_threshold ?? 0.5, minSilenceMs: endpointingMs },
      turns: {
        detection: engine === 'realtime' ? 'realtime_llm' : a.endpoint_type === 'ai' ? 'stt' : 'vad',
        minEndpointingDelayMs: endpointingMs,
        maxEndpointingDelayMs: endpointingMs * 4,
        interruptions: a.allow_interruptions,
        minInterruptionDurationMs: delayForSensitivity(a.interrupt_sensitivity, 1000),
        minInterruptionWords: a.min_interrupt_words ?? 0,
      },
      assistantSpeaksFirst: !a.wait_for_customer && a.initial_message.trim() !== '',
      limits: {
        maxDurationS: a.max_duration,
        ringingS: a.ringing_time,
        maxSilenceS: a.max_silence_duration,
        maxInitialSilenceS: a.max_initial_silence_duration,
        reengagementIntervalS: a.reengagement_interval,
      },
      voicemail: { endCall: a.end_call_on_voicemail },
      ambient: a.ambient_sound === 'office' ? { clip: 'office', volume: a.ambient_sound_volume } : null,
      fillers: engine === 'pipeline' && a.fillers ? fillerPhrases(a.filler_config) : null,
      record: a.record,
    },
  };
}

function fillerPhrases(config: RuntimeConfig['assistant']['filler_config']): readonly string[] {
  const configured = config ? [...config.neutral, ...config.positive] : [];
  return configured.length > 0 ? configured : DEFAULT_FILLERS;
}
