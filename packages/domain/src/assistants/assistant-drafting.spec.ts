import { AssistantChanges, AssistantConfig } from './assistant';
import { defaultVoiceId, voicesMatching } from './catalog';
import { draftAssistant, reviseAssistant } from './drafting';
import { referencesToCheck } from './rules';
import { builtInTool } from './built-in-tools';
import { SHIPPED_CATALOG } from '../../test-support/reference-catalog';

const CATALOG = SHIPPED_CATALOG;

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
  it('applies every default to a name-only request', () => {
    expect(draft()).toEqual<AssistantConfig>({
      name: 'Support',
      type: 'outbound',
      mode: 'pipeline',
      timezone: 'UTC',
      initialMessage: '',
      systemPrompt: '',
      knowledgebaseMode: null,
      reengagementPrompt: null,
      voiceMailMessage: null,
      endpointType: 'vad',
      ambientSound: 'off',
      webhookUrl: null,
      conversationEndedWebhookUrl: null,
      voiceId: 1,
      languageId: 1,
      llmModelId: 1,
      multimodalModelId: null,
      chatLlmFallbackId: null,
      knowledgebaseId: null,
      folderId: null,
      phoneNumberId: null,
      synthesizerProviderId: null,
      transcriberProviderId: null,
      secondaryLanguageIds: [],
      labelIds: [],
      toolIds: [],
      tools: [],
      postCallSchema: [],
      turnDetectionThreshold: null,
      voiceStability: 0.7,
      voiceSimilarity: 0.5,
      speechSpeed: 1.0,
      llmTemperature: 0.1,
      maxDuration: 600,
      maxSilenceDuration: 40,
      maxInitialSilenceDuration: null,
      ringingTime: 30,
      reengagementInterval: 30,
      endpointSensitivity: 0.5,
      interruptSensitivity: 0.5,
      minInterruptWords: null,
      ambientSoundVolume: 0.5,
      conversationInactivityTimeout: 30,
      ttsEmotionEnabled: true,
      allowInterruptions: true,
      fillers: false,
      record: false,
      enableNoiseCancellation: true,
      waitForCustomer: false,
      endCallOnVoicemail: true,
      isWebhookActive: false,
      sendWebhookOnlyOnCompleted: true,
      includeRecordingInWebhook: true,
      postCallEvaluation: true,
      conversationEndedRetrigger: false,
      fillerConfig: null,
      variables: {},
    });
  });

  it.each<[string, AssistantChanges, Partial<AssistantConfig>]>([
    [
      'multimodal picks the multimodal model and a multimodal voice',
      { mode: 'multimodal' },
      { voiceId: 5, multimodalModelId: 3, llmModelId: 1 },
    ],
    [
      'dualplex keeps a pipeline-style voice',
      { mode: 'dualplex', languageId: 5 },
      { voiceId: 3, multimodalModelId: 3 },
    ],
    ['the default voice follows the language', { languageId: 3 }, { voiceId: 4 }],
    ['a sent voice is kept (validated later)', { voiceId: 2 }, { voiceId: 2 }],
    [
      'fillers and transcriber are pipeline-only',
      { mode: 'multimodal', fillers: true, transcriberProviderId: 3 },
      { fillers: false, transcriberProviderId: null },
    ],
    [
      'fillers stay in the pipeline',
      { fillers: true, transcriberProviderId: 3 },
      { fillers: true, transcriberProviderId: 3 },
    ],
    [
      'a knowledge base defaults its mode to function_call',
      { knowledgebaseId: 4 },
      { knowledgebaseMode: 'function_call' },
    ],
    [
      'a sent knowledge-base mode is kept',
      { knowledgebaseId: 4, knowledgebaseMode: 'prompt' },
      { knowledgebaseMode: 'prompt' },
    ],
    ['no knowledge base, no knowledge-base mode', { knowledgebaseMode: 'prompt' }, { knowledgebaseMode: null }],
    [
      'id lists lose duplicates, keep order',
      { toolIds: [3, 1, 3], labelIds: [2, 2], secondaryLanguageIds: [5, 1, 5] },
      { toolIds: [3, 1], labelIds: [2], secondaryLanguageIds: [5, 1] },
    ],
  ])('%s', (_, changes, expected) => {
    expect(draft(changes)).toEqual(expect.objectContaining(expected));
  });
});

describe('reviseAssistant (update)', () => {
  const stored = draft({
    fillers: true,
    synthesizerProviderId: 1,
    transcriberProviderId: 3,
    knowledgebaseId: 4,
    knowledgebaseMode: 'prompt',
    webhookUrl: 'https://hooks.example.com/a',
    isWebhookActive: true,
    conversationEndedWebhookUrl: 'https://hooks.example.com/c',
  });

  it('changes only what was sent', () => {
    expect(reviseAssistant(stored, { name: 'Renamed', speechSpeed: 0.9 }, CATALOG)).toEqual({
      ...stored,
      name: 'Renamed',
      speechSpeed: 0.9,
    });
  });

  it('keeps everything when the mode is sent unchanged', () => {
    expect(reviseAssistant(stored, { mode: 'pipeline' }, CATALOG)).toEqual(stored);
  });

  it.each<[string, AssistantConfig, AssistantChanges, Partial<AssistantConfig>]>([
    [
      'pipeline → multimodal resets mode settings',
      stored,
      { mode: 'multimodal' },
      {
        mode: 'multimodal',
        llmModelId: 1,
        multimodalModelId: 3,
        synthesizerProviderId: null,
        transcriberProviderId: null,
        voiceId: 5,
        fillers: false,
        allowInterruptions: true,
        knowledgebaseMode: 'function_call',
      },
    ],
    [
      'pipeline → dualplex keeps a compatible voice',
      stored,
      { mode: 'dualplex' },
      { voiceId: 1, multimodalModelId: 3, knowledgebaseMode: 'function_call' },
    ],
    [
      'values sent with the mode are kept',
      stored,
      { mode: 'multimodal', voiceId: 6, synthesizerProviderId: 2, llmModelId: 2 },
      { voiceId: 6, synthesizerProviderId: 2, llmModelId: 2 },
    ],
    [
      'an incompatible sent voice is kept for the rules to refuse',
      stored,
      { mode: 'multimodal', voiceId: 1 },
      { voiceId: 1 },
    ],
    [
      'multimodal → pipeline clears the multimodal model',
      draft({ mode: 'multimodal', languageId: 5 }),
      { mode: 'pipeline' },
      { multimodalModelId: null, voiceId: 3, llmModelId: 1 },
    ],
    [
      'allow_interruptions false sent with the new mode stays false',
      { ...stored, allowInterruptions: false },
      { mode: 'dualplex', allowInterruptions: false },
      { allowInterruptions: false },
    ],
    [
      'a stored allow_interruptions false becomes true',
      { ...stored, allowInterruptions: false },
      { mode: 'dualplex' },
      { allowInterruptions: true },
    ],
    ['clearing the knowledge base clears its mode', stored, { knowledgebaseId: null }, { knowledgebaseMode: null }],
    [
      'null clears a nullable field',
      stored,
      { synthesizerProviderId: null, reengagementPrompt: null },
      { synthesizerProviderId: null, reengagementPrompt: null },
    ],
    ['[] clears a list', { ...stored, toolIds: [1, 2] }, { toolIds: [] }, { toolIds: [] }],
  ])('%s', (_, before, changes, expected) => {
    expect(reviseAssistant(before, changes, CATALOG)).toEqual(expect.objectContaining(expected));
  });

  it.each<[string, AssistantChanges, { isWebhookActive: boolean; webhookUrl: string | null }]>([
    [
      'is_webhook_active false also clears the URL',
      { isWebhookActive: false },
      { isWebhookActive: false, webhookUrl: null },
    ],
    ['webhook_url null also deactivates', { webhookUrl: null }, { isWebhookActive: false, webhookUrl: null }],
    [
      'a URL sent with is_webhook_active false is kept',
      { isWebhookActive: false, webhookUrl: 'https://hooks.example.com/b' },
      { isWebhookActive: false, webhookUrl: 'https://hooks.example.com/b' },
    ],
    [
      'null URL with active true stays contradictory for the rules',
      { webhookUrl: null, isWebhookActive: true },
      { isWebhookActive: true, webhookUrl: null },
    ],
    [
      'a new URL keeps the webhook active',
      { webhookUrl: 'https://hooks.example.com/b' },
      { isWebhookActive: true, webhookUrl: 'https://hooks.example.com/b' },
    ],
  ])('webhook: %s', (_, changes, expected) => {
    expect(reviseAssistant(stored, changes, CATALOG)).toEqual(expect.objectContaining(expected));
  });
});

describe('referencesToCheck', () => {
  it('asks only for what the request names, and for the inbound number on the merged state', () => {
    const changes: AssistantChanges = {
      folderId: 10,
      labelIds: [7, 7],
      toolIds: [21],
      type: 'inbound',
      phoneNumberId: 41,
      tools: [
        builtInTool({ type: 'calendar_integration', data: { event_type_id: 2 } }),
        builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } }),
        builtInTool({ type: 'assistant_transfer', data: { assistant_id: 55 } }),
      ],
    };
    expect(referencesToCheck(changes, draft(changes), 55)).toEqual({
      folderIds: [10],
      knowledgeBaseIds: [],
      phoneNumberIds: [41],
      labelIds: [7],
      toolIds: [21],
      eventTypeIds: [2],
      assistantIds: [101],
      inboundNumber: { phoneNumberId: 41, exceptAssistantId: 55 },
    });
  });

  it('skips the inbound check for outbound assistants', () => {
    expect(referencesToCheck({ phoneNumberId: 41 }, draft({ phoneNumberId: 41 }), null).inboundNumber).toBeNull();
  });
});
