import {
  ASSISTANT_DEFAULTS,
  AssistantConfig,
  buildRuntimeConfig,
  RuntimeConfig,
  runtimeSpeech,
} from '@voiceplane/domain';
import { SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import { delayForSensitivity, planSpeech, SpeechPlan } from './speech-plan';

const KEYS: Record<'deepgram' | 'elevenlabs' | 'cartesia' | 'openai', string | null> = {
  deepgram: 'dg',
  elevenlabs: 'el',
  cartesia: 'ca',
  openai: 'sk',
};

/** A runtime config as the control plane builds it, from the shipped catalogue sample. */
function config(overrides: Partial<AssistantConfig> = {}, language = 'en', secondary: string[] = []): RuntimeConfig {
  const assistant: AssistantConfig = {
    ...ASSISTANT_DEFAULTS,
    name: 'Support',
    voiceId: 1,
    llmModelId: 1,
    multimodalModelId: null,
    knowledgebaseMode: null,
    ...overrides,
  };
  const built = buildRuntimeConfig({
    direction: 'outbound',
    channel: 'phone',
    customerPhone: '+14155551234',
    line: null,
    assistantId: 101,
    assistant,
    languageCode: language,
    secondaryLanguageCodes: secondary,
    variables: {},
    tools: [],
  });
  return { ...built, speech: runtimeSpeech(SAMPLE_CATALOG, assistant) };
}

function plan(
  overrides: Partial<AssistantConfig> = {},
  keys = KEYS,
  language = 'en',
  secondary: string[] = [],
): SpeechPlan {
  const result = planSpeech(config(overrides, language, secondary), keys);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.plan;
}
const problems = (overrides: Partial<AssistantConfig>, keys = KEYS) => {
  const result = planSpeech(config(overrides), keys);
  return result.ok ? [] : result.problems;
};

describe('speech plan: every speech setting of an assistant, field by field', () => {
  describe('mode and models', () => {
    it("pipeline: Deepgram nova-3 → the llm_model at llm_temperature → the voice's synthesizer", () => {
      const p = plan({ llmModelId: 2, llmTemperature: 0.6 });
      expect(p.engine).toBe('pipeline');
      expect(p.stt).toEqual({ provider: 'deepgram', model: 'nova-3', language: 'en' });
      expect(p.llm).toEqual({ provider: 'openai', model: 'gpt-4.1', temperature: 0.6 });
      expect(p.realtime).toBeNull();
      expect(p.tts).toEqual(
        expect.objectContaining({ provider: 'elevenlabs', voiceId: '21m00Tcm4TlvDq8ikWAM', language: 'en' }),
      );
    });

    it('multimodal: one realtime model with the multimodal voice, no transcriber, synthesizer or local VAD', () => {
      const p = plan({ mode: 'multimodal', multimodalModelId: 3, voiceId: 5, speechSpeed: 1.1 });
      expect(p.engine).toBe('realtime');
      expect(p.realtime).toEqual(
        expect.objectContaining({ provider: 'openai', model: 'gpt-realtime', voice: 'alloy', speed: 1.1 }),
      );
      expect([p.stt, p.llm, p.tts, p.vad]).toEqual([null, null, null, null]);
      expect(p.turns.detection).toBe('realtime_llm');
    });

    it("dualplex: the realtime model thinks, the assistant's synthesizer voice speaks", () => {
      const p = plan({ mode: 'dualplex', multimodalModelId: 3, voiceId: 3 });
      expect(p.engine).toBe('dualplex');
      expect(p.realtime).toEqual(expect.objectContaining({ voice: null }));
      expect(p.tts).toEqual(
        expect.objectContaining({ provider: 'cartesia', voiceId: '3f4ade23-6eb4-4279-ab05-6a144947c4d5' }),
      );
    });
  });

  describe('language_id and secondary_language_ids', () => {
    it("transcribe and synthesize the assistant's language; with secondary languages the transcriber listens multilingually", () => {
      expect(plan({ voiceId: 3 }, KEYS, 'de').stt?.language).toBe('de');
      expect(plan({ voiceId: 3 }, KEYS, 'de').tts?.language).toBe('de');
      expect(plan({}, KEYS, 'en', ['de', 'fr']).stt?.language).toBe('multi');
      expect(plan({}, KEYS, 'en', ['en']).stt?.language).toBe('en');
    });
  });

  describe('voice_id, synthesizer_provider_id, transcriber_provider_id', () => {
    it('ElevenLabs voices get voice_stability, voice_similarity and speech_speed; tts_emotion_enabled false flattens the style', () => {
      expect(
        plan({ voiceStability: 0.3, voiceSimilarity: 0.9, speechSpeed: 0.8, ttsEmotionEnabled: true }).tts,
      ).toEqual({
        provider: 'elevenlabs',
        voiceId: '21m00Tcm4TlvDq8ikWAM',
        language: 'en',
        stability: 0.3,
        similarity: 0.9,
        speed: 0.8,
        style: null,
      });
      expect(plan({ ttsEmotionEnabled: false }).tts).toEqual(expect.objectContaining({ style: 0 }));
    });

    it('Cartesia voices get speech_speed; tts_emotion_enabled false asks for a neutral delivery', () => {
      expect(plan({ voiceId: 3, speechSpeed: 1.2 }).tts).toEqual({
        provider: 'cartesia',
        voiceId: '3f4ade23-6eb4-4279-ab05-6a144947c4d5',
        language: 'en',
        speed: 1.2,
        emotion: null,
      });
      expect(plan({ voiceId: 3, ttsEmotionEnabled: false }).tts).toEqual(
        expect.objectContaining({ emotion: ['neutral'] }),
      );
    });

    it("an explicit synthesizer must be the voice's own; the transcriber must be Deepgram", () => {
      expect(plan({ synthesizerProviderId: 1 }).tts?.provider).toBe('elevenlabs');
      expect(problems({ synthesizerProviderId: 2 })).toEqual(['voice Ava belongs to elevenlabs, not cartesia']);
      expect(plan({ transcriberProviderId: 3 }).stt?.provider).toBe('deepgram');
    });

    it('refuses what it cannot run: unknown voice or model, a realtime voice in a pipeline, missing provider keys', () => {
      expect(problems({ voiceId: 42 })).toEqual(['the assistant has no known voice_id']);
      expect(problems({ llmModelId: 42 })).toEqual(['the assistant has no known llm_model_id']);
      expect(problems({ voiceId: 5 })).toEqual([
        'voice alloy is a realtime-model voice; this mode needs a synthesizer voice',
      ]);
      expect(problems({ mode: 'multimodal', multimodalModelId: 3, voiceId: 1 })).toEqual([
        'voice Ava cannot be spoken by a realtime model',
      ]);
      expect(problems({}, { deepgram: null, elevenlabs: null, cartesia: null, openai: null })).toEqual([
        'the Deepgram transcriber needs DEEPGRAM_API_KEY',
        'the OpenAI LLM needs OPENAI_API_KEY',
        'the ElevenLabs voice needs ELEVEN_API_KEY',
      ]);
      expect(problems({ voiceId: 3 }, { ...KEYS, cartesia: null })).toEqual([
        'the Cartesia voice needs CARTESIA_API_KEY',
      ]);
      expect(planSpeech({ ...config(), speech: undefined }, KEYS)).toEqual({
        ok: false,
        problems: [expect.stringContaining('no resolved speech settings')],
      });
    });
  });

  describe('turn taking', () => {
    it('turn_detection_threshold is the VAD activation threshold (null: 0.5) and the realtime server VAD threshold', () => {
      expect(plan({ turnDetectionThreshold: 0.8 }).vad?.activationThreshold).toBe(0.8);
      expect(plan({ turnDetectionThreshold: null }).vad?.activationThreshold).toBe(0.5);
      expect(
        plan({ mode: 'multimodal', multimodalModelId: 3, voiceId: 5, turnDetectionThreshold: 0.7 }).realtime
          ?.turnDetection,
      ).toEqual(expect.objectContaining({ type: 'server_vad', threshold: 0.7 }));
    });

    it("endpoint_type: vad detects turns by voice activity, ai by the transcriber's end of utterance (realtime: semantic VAD)", () => {
      expect(plan({ endpointType: 'vad' }).turns.detection).toBe('vad');
      expect(plan({ endpointType: 'ai' }).turns.detection).toBe('stt');
      expect(
        plan({ mode: 'multimodal', multimodalModelId: 3, voiceId: 5, endpointType: 'ai', endpointSensitivity: 3 })
          .realtime?.turnDetection,
      ).toEqual({ type: 'semantic_vad', eagerness: 'high' });
    });

    it('endpoint_sensitivity: the higher, the sooner a pause ends the turn', () => {
      expect(delayForSensitivity(0, 1000)).toBe(1000);
      expect(delayForSensitivity(0.5, 1000)).toBe(667);
      expect(delayForSensitivity(5, 1000)).toBe(167);
      expect(plan({ endpointSensitivity: 1 }).turns).toEqual(
        expect.objectContaining({ minEndpointingDelayMs: 500, maxEndpointingDelayMs: 2000 }),
      );
      expect(plan({ endpointSensitivity: 1 }).vad?.minSilenceMs).toBe(500);
    });

    it('allow_interruptions, interrupt_sensitivity and min_interrupt_words shape interruptions', () => {
      expect(plan({ allowInterruptions: false, interruptSensitivity: 4, minInterruptWords: 3 }).turns).toEqual(
        expect.objectContaining({ interruptions: false, minInterruptionDurationMs: 200, minInterruptionWords: 3 }),
      );
      expect(plan({ minInterruptWords: null }).turns.minInterruptionWords).toBe(0);
    });

    it('fillers with filler_config (neutral and positive phrases; defaults without a config), pipeline only', () => {
      expect(plan({ fillers: false }).fillers).toBeNull();
      expect(
        plan({
          fillers: true,
          fillerConfig: { positive: ['Great!'], negative: ['Oh no.'], question: ['Hm?'], neutral: ['One moment.'] },
        }).fillers,
      ).toEqual(['One moment.', 'Great!']);
      expect(plan({ fillers: true, fillerConfig: null }).fillers).toEqual(
        expect.arrayContaining(['One moment, please.']),
      );
      expect(plan({ mode: 'dualplex', multimodalModelId: 3, fillers: true }).fillers).toBeNull();
    });
  });

  describe('who speaks first, time limits and the line', () => {
    it('wait_for_customer and initial_message decide whether the assistant greets', () => {
      expect(plan({ initialMessage: 'Hi!', waitForCustomer: false }).assistantSpeaksFirst).toBe(true);
      expect(plan({ initialMessage: 'Hi!', waitForCustomer: true }).assistantSpeaksFirst).toBe(false);
      expect(plan({ initialMessage: '  ', waitForCustomer: false }).assistantSpeaksFirst).toBe(false);
    });

    it('max_duration, ringing_time, max_silence_duration, max_initial_silence_duration, reengagement_interval', () => {
      expect(
        plan({
          maxDuration: 300,
          ringingTime: 20,
          maxSilenceDuration: 60,
          maxInitialSilenceDuration: 8,
          reengagementInterval: 15,
        }).limits,
      ).toEqual({ maxDurationS: 300, ringingS: 20, maxSilenceS: 60, maxInitialSilenceS: 8, reengagementIntervalS: 15 });
    });

    it('end_call_on_voicemail, ambient_sound (office is the clip LiveKit ships) at ambient_sound_volume, record', () => {
      expect(plan({ endCallOnVoicemail: false }).voicemail).toEqual({ endCall: false });
      expect(plan({ ambientSound: 'office', ambientSoundVolume: 0.3 }).ambient).toEqual({
        clip: 'office',
        volume: 0.3,
      });
      expect(plan({ ambientSound: 'forest' }).ambient).toBeNull();
      expect(plan({ ambientSound: 'off' }).ambient).toBeNull();
      expect(plan({ record: true }).record).toBe(true);
    });

    it("enable_noise_cancellation turns on the realtime model's input noise reduction", () => {
      const realtime = (on: boolean) =>
        plan({ mode: 'multimodal', multimodalModelId: 3, voiceId: 5, enableNoiseCancellation: on }).realtime
          ?.noiseReduction;
      expect([realtime(true), realtime(false)]).toEqual([true, false]);
    });
  });
});
