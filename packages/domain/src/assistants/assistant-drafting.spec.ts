import { AssistantChanges, AssistantConfig } from './assistant';
import { defaultVoiceId, ReferenceCatalog, voicesMatching } from './catalog';
import { draftAssistant, reviseAssistant } from './drafting';
import { referencesToCheck } from './rules';
import { builtInTool } from './built-in-tools';

/** The shipped catalogue of CONTRACT §3.10. */
const CATALOG: ReferenceCatalog = {
  languages: [
    { id: 1, name: 'English', iso_2: 'en' }, { id: 2, name: 'Romanian', iso_2: 'ro' }, { id: 3, name: 'French', iso_2: 'fr' },
    { id: 5, name: 'German', iso_2: 'de' },
  ],
  voices: [
    { id: 1, name: 'Ava', language_id: 1, gender: 'female', accent: 'American', age: 'young', preview_url: null, synthesizer_provider_id: 1, modes: ['pipeline', 'dualplex'] },
    { id: 2, name: 'Noah', language_id: 1, gender: 'male', accent: 'American', age: 'middle_aged', preview_url: null, synthesizer_provider_id: 1, modes: ['pipeline', 'dualplex'] },
    { id: 3, name: 'Lena', language_id: 5, gender: 'female', accent: 'German', age: 'young', preview_url: null, synthesizer_provider_id: 2, modes: ['pipeline', 'dualplex'] },
    { id: 4, name: 'Léa', language_id: 3, gender: 'female', accent: 'Parisian French', age: 'young', preview_url: null, synthesizer_provider_id: 2, modes: ['pipeline', 'dualplex'] },
    { id: 5, name: 'alloy', language_id: null, gender: 'neutral', accent: null, age: null, preview_url: null, synthesizer_provider_id: null, modes: ['multimodal'] },
    { id: 6, name: 'verse', language_id: null, gender: 'male', accent: null, age: null, preview_url: null, synthesizer_provider_id: null, modes: ['multimodal'] },
  ],
  models: [
    { id: 1, name: 'gpt-4o-mini', provider: 'openai', kind: 'llm' },
    { id: 2, name: 'gpt-4.1', provider: 'openai', kind: 'llm' },
    { id: 3, name: 'gpt-4o-realtime', provider: 'openai', kind: 'multimodal' },
  ],
  providers: [
    { id: 1, name: 'elevenlabs', kind: 'synthesizer' }, { id: 2, name: 'cartesia', kind: 'synthesizer' }, { id: 3, name: 'deepgram', kind: 'transcriber' },
  ],
};

const draft = (changes: AssistantChanges = {}) => draftAssistant({ name: 'Support', ...changes }, CATALOG);

describe('catalogue defaults', () => {
  it.each([
    ['pipeline', 1, 1],
    ['pipeline', 5, 3],
    ['pipeline', 3, 4],
    ['pipeline', 2, 1], // no Romanian voice: lowest compatible voice
    ['dualplex', 5, 3],
    ['multimodal', 1, 5], // multilingual voices speak every language
    ['multimodal', 3, 5],
  ] as const)('mode %s, language %i → voice %i', (mode, languageId, voiceId) => {
    expect(defaultVoiceId(CATALOG, mode, languageId)).toBe(voiceId);
  });

  it('has no default voice when no voice supports the mode', () => {
    expect(defaultVoiceId({ ...CATALOG, voices: CATALOG.voices.filter((v) => v.id < 5) }, 'multimodal', 1)).toBeNull();
  });

  it.each([
    [{}, [1, 2, 3, 4, 5, 6]],
    [{ mode: 'multimodal' as const }, [5, 6]],
    [{ mode: 'pipeline' as const, language_id: 5 }, [3]],
    [{ language_id: 3 }, [4, 5, 6]],
    [{ language_id: 2 }, [5, 6]],
  ])('voices matching %j', (filter, ids) => {
    expect(voicesMatching(CATALOG, filter).map((v) => v.id)).toEqual(ids);
  });
});

describe('draftAssistant (create)', () => {
  it('applies every default of §3.1 to a name-only request', () => {
    expect(draft()).toEqual<AssistantConfig>({
      name: 'Support', type: 'outbound', mode: 'pipeline', timezone: 'UTC', initial_message: '', system_prompt: '',
      knowledgebase_mode: null, reengagement_prompt: null, voice_mail_message: null, endpoint_type: 'vad', ambient_sound: 'off',
      webhook_url: null, conversation_ended_webhook_url: null, voice_id: 1, language_id: 1, llm_model_id: 1,
      multimodal_model_id: null, chat_llm_fallback_id: null, knowledgebase_id: null, folder_id: null, phone_number_id: null,
      synthesizer_provider_id: null, transcriber_provider_id: null, secondary_language_ids: [], label_ids: [], tool_ids: [],
      tools: [], post_call_schema: [], turn_detection_threshold: null, voice_stability: 0.7, voice_similarity: 0.5,
      speech_speed: 1.0, llm_temperature: 0.1, max_duration: 600, max_silence_duration: 40, max_initial_silence_duration: null,
      ringing_time: 30, reengagement_interval: 30, endpoint_sensitivity: 0.5, interrupt_sensitivity: 0.5, min_interrupt_words: null,
      ambient_sound_volume: 0.5, conversation_inactivity_timeout: 30, tts_emotion_enabled: true, allow_interruptions: true,
      fillers: false, record: false, enable_noise_cancellation: true, wait_for_customer: false, end_call_on_voicemail: true,
      is_webhook_active: false, send_webhook_only_on_completed: true, include_recording_in_webhook: true,
      post_call_evaluation: true, conversation_ended_retrigger: false, filler_config: null, variables: {},
    });
  });

  it.each<[string, AssistantChanges, Partial<AssistantConfig>]>([
    ['multimodal picks the multimodal model and a multimodal voice', { mode: 'multimodal' }, { voice_id: 5, multimodal_model_id: 3, llm_model_id: 1 }],
    ['dualplex keeps a pipeline-style voice', { mode: 'dualplex', language_id: 5 }, { voice_id: 3, multimodal_model_id: 3 }],
    ['the default voice follows the language', { language_id: 3 }, { voice_id: 4 }],
    ['a sent voice is kept (validated later)', { voice_id: 2 }, { voice_id: 2 }],
    ['fillers and transcriber are pipeline-only', { mode: 'multimodal', fillers: true, transcriber_provider_id: 3 }, { fillers: false, transcriber_provider_id: null }],
    ['fillers stay in the pipeline', { fillers: true, transcriber_provider_id: 3 }, { fillers: true, transcriber_provider_id: 3 }],
    ['a knowledge base defaults its mode to function_call', { knowledgebase_id: 4 }, { knowledgebase_mode: 'function_call' }],
    ['a sent knowledge-base mode is kept', { knowledgebase_id: 4, knowledgebase_mode: 'prompt' }, { knowledgebase_mode: 'prompt' }],
    ['no knowledge base, no knowledge-base mode', { knowledgebase_mode: 'prompt' }, { knowledgebase_mode: null }],
    ['id lists lose duplicates, keep order', { tool_ids: [3, 1, 3], label_ids: [2, 2], secondary_language_ids: [5, 1, 5] }, { tool_ids: [3, 1], label_ids: [2], secondary_language_ids: [5, 1] }],
  ])('%s', (_, changes, expected) => {
    expect(draft(changes)).toEqual(expect.objectContaining(expected));
  });
});

describe('reviseAssistant (update)', () => {
  const stored = draft({ fillers: true, synthesizer_provider_id: 1, transcriber_provider_id: 3, knowledgebase_id: 4, knowledgebase_mode: 'prompt', webhook_url: 'https://hooks.example.com/a', is_webhook_active: true, conversation_ended_webhook_url: 'https://hooks.example.com/c' });

  it('changes only what was sent', () => {
    expect(reviseAssistant(stored, { name: 'Renamed', speech_speed: 0.9 }, CATALOG)).toEqual({ ...stored, name: 'Renamed', speech_speed: 0.9 });
  });

  it('keeps everything when the mode is sent unchanged', () => {
    expect(reviseAssistant(stored, { mode: 'pipeline' }, CATALOG)).toEqual(stored);
  });

  it.each<[string, AssistantConfig, AssistantChanges, Partial<AssistantConfig>]>([
    ['pipeline → multimodal resets mode settings', stored, { mode: 'multimodal' }, {
      mode: 'multimodal', llm_model_id: 1, multimodal_model_id: 3, synthesizer_provider_id: null, transcriber_provider_id: null,
      voice_id: 5, fillers: false, allow_interruptions: true, knowledgebase_mode: 'function_call',
    }],
    ['pipeline → dualplex keeps a compatible voice', stored, { mode: 'dualplex' }, { voice_id: 1, multimodal_model_id: 3, knowledgebase_mode: 'function_call' }],
    ['values sent with the mode are kept', stored, { mode: 'multimodal', voice_id: 6, synthesizer_provider_id: 2, llm_model_id: 2 }, { voice_id: 6, synthesizer_provider_id: 2, llm_model_id: 2 }],
    ['an incompatible sent voice is kept for the rules to refuse', stored, { mode: 'multimodal', voice_id: 1 }, { voice_id: 1 }],
    ['multimodal → pipeline clears the multimodal model', draft({ mode: 'multimodal', language_id: 5 }), { mode: 'pipeline' }, { multimodal_model_id: null, voice_id: 3, llm_model_id: 1 }],
    ['allow_interruptions false sent with the new mode stays false', { ...stored, allow_interruptions: false }, { mode: 'dualplex', allow_interruptions: false }, { allow_interruptions: false }],
    ['a stored allow_interruptions false becomes true', { ...stored, allow_interruptions: false }, { mode: 'dualplex' }, { allow_interruptions: true }],
    ['clearing the knowledge base clears its mode', stored, { knowledgebase_id: null }, { knowledgebase_mode: null }],
    ['null clears a nullable field', stored, { synthesizer_provider_id: null, reengagement_prompt: null }, { synthesizer_provider_id: null, reengagement_prompt: null }],
    ['[] clears a list', { ...stored, tool_ids: [1, 2] }, { tool_ids: [] }, { tool_ids: [] }],
  ])('%s', (_, before, changes, expected) => {
    expect(reviseAssistant(before, changes, CATALOG)).toEqual(expect.objectContaining(expected));
  });

  it.each<[string, AssistantChanges, { is_webhook_active: boolean; webhook_url: string | null }]>([
    ['is_webhook_active false also clears the URL', { is_webhook_active: false }, { is_webhook_active: false, webhook_url: null }],
    ['webhook_url null also deactivates', { webhook_url: null }, { is_webhook_active: false, webhook_url: null }],
    ['a URL sent with is_webhook_active false is kept', { is_webhook_active: false, webhook_url: 'https://hooks.example.com/b' }, { is_webhook_active: false, webhook_url: 'https://hooks.example.com/b' }],
    ['null URL with active true stays contradictory for the rules', { webhook_url: null, is_webhook_active: true }, { is_webhook_active: true, webhook_url: null }],
    ['a new URL keeps the webhook active', { webhook_url: 'https://hooks.example.com/b' }, { is_webhook_active: true, webhook_url: 'https://hooks.example.com/b' }],
  ])('webhook: %s', (_, changes, expected) => {
    expect(reviseAssistant(stored, changes, CATALOG)).toEqual(expect.objectContaining(expected));
  });
});

describe('referencesToCheck', () => {
  it('asks only for what the request names, and for the inbound number on the merged state', () => {
    const changes: AssistantChanges = {
      folder_id: 10, label_ids: [7, 7], tool_ids: [21], type: 'inbound', phone_number_id: 41,
      tools: [builtInTool({ type: 'calendar_integration', data: { event_type_id: 2 } }), builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } }), builtInTool({ type: 'assistant_transfer', data: { assistant_id: 55 } })],
    };
    expect(referencesToCheck(changes, draft(changes), 55)).toEqual({
      folderIds: [10], knowledgeBaseIds: [], phoneNumberIds: [41], labelIds: [7], toolIds: [21], eventTypeIds: [2], assistantIds: [101],
      inboundNumber: { phoneNumberId: 41, exceptAssistantId: 55 },
    });
  });

  it('skips the inbound check for outbound assistants', () => {
    expect(referencesToCheck({ phone_number_id: 41 }, draft({ phone_number_id: 41 }), null).inboundNumber).toBeNull();
  });
});
