import { ReferenceCatalog } from '../assistants/catalog';
import { PROVIDER_VOICE_IDS, runtimeSpeech } from './runtime-speech';

const catalog: ReferenceCatalog = {
  languages: [{ id: 1, name: 'English', iso_2: 'en' }],
  voices: [
    {
      id: 1,
      name: 'Ava',
      language_id: 1,
      gender: 'female',
      accent: 'American',
      age: 'young',
      preview_url: null,
      synthesizer_provider_id: 1,
      modes: ['pipeline', 'dualplex'],
    },
    {
      id: 3,
      name: 'Lena',
      language_id: 5,
      gender: 'female',
      accent: 'German',
      age: 'young',
      preview_url: null,
      synthesizer_provider_id: 2,
      modes: ['pipeline', 'dualplex'],
    },
    {
      id: 5,
      name: 'alloy',
      language_id: null,
      gender: 'neutral',
      accent: null,
      age: null,
      preview_url: null,
      synthesizer_provider_id: null,
      modes: ['multimodal'],
    },
    {
      id: 99,
      name: 'Custom',
      language_id: 1,
      gender: 'male',
      accent: null,
      age: null,
      preview_url: null,
      synthesizer_provider_id: 1,
      modes: ['pipeline'],
    },
  ],
  models: [
    { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
    { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
  ],
  providers: [
    { id: 1, name: 'elevenlabs', kind: 'synthesizer' },
    { id: 2, name: 'cartesia', kind: 'synthesizer' },
    { id: 3, name: 'deepgram', kind: 'transcriber' },
  ],
};
const none = {
  voiceId: null,
  synthesizerProviderId: null,
  transcriberProviderId: null,
  llmModelId: null,
  multimodalModelId: null,
  chatLlmFallbackId: null,
};

describe('runtime speech: the catalogue entries a call needs, resolved at its start', () => {
  it('names the voice, its provider and its provider voice id, and the models and providers by name', () => {
    expect(
      runtimeSpeech(catalog, {
        ...none,
        voiceId: 3,
        transcriberProviderId: 3,
        synthesizerProviderId: 2,
        llmModelId: 1,
        chatLlmFallbackId: 1,
      }),
    ).toEqual({
      voice: { id: 3, name: 'Lena', provider: 'cartesia', provider_voice_id: PROVIDER_VOICE_IDS[3] },
      synthesizer: 'cartesia',
      transcriber: 'deepgram',
      llm_model: { name: 'gpt-4o-mini', provider: 'openai' },
      multimodal_model: null,
      chat_llm_fallback: { name: 'gpt-4o-mini', provider: 'openai' },
    });
    expect(runtimeSpeech(catalog, { ...none, voiceId: 5, multimodalModelId: 3 })).toEqual(
      expect.objectContaining({
        voice: { id: 5, name: 'alloy', provider: null, provider_voice_id: 'alloy' },
        multimodal_model: { name: 'gpt-4o-realtime', provider: 'openai' },
      }),
    );
  });

  it('leaves unknown or unset ids null, so the agent can refuse the call instead of guessing', () => {
    expect(runtimeSpeech(catalog, { ...none, voiceId: 42, llmModelId: 42, transcriberProviderId: 42 })).toEqual({
      voice: null,
      synthesizer: null,
      transcriber: null,
      llm_model: null,
      multimodal_model: null,
      chat_llm_fallback: null,
    });
    expect(runtimeSpeech(catalog, { ...none, voiceId: 99 }).voice).toEqual({
      id: 99,
      name: 'Custom',
      provider: 'elevenlabs',
      provider_voice_id: null,
    });
  });

  it('has a provider voice id for every shipped voice', () => {
    expect(Object.keys(PROVIDER_VOICE_IDS).map(Number)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
