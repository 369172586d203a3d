import {
  AssistantChanges,
  assistantRuleProblems,
  builtInTool,
  draftAssistant,
  OwnedReferences,
  reviseAssistant,
  RuleContext,
} from '@voiceplane/domain';
import { fieldErrors } from '@voiceplane/adapter-http';
import { ASSISTANT_FIELD_MESSAGES, ASSISTANT_MESSAGES } from '@voiceplane/adapter-http';
import { SHIPPED_CATALOG } from '@voiceplane/domain/test-support/reference-catalog';

/** The domain's rule problems as the client reads them. */
const assistantRuleErrors = (...args: Parameters<typeof assistantRuleProblems>) =>
  fieldErrors(assistantRuleProblems(...args), ASSISTANT_FIELD_MESSAGES);

const CATALOG = SHIPPED_CATALOG;

const draft = (changes: AssistantChanges = {}) => draftAssistant({ name: 'Support', ...changes }, CATALOG);

const NONE: OwnedReferences = {
  folderIds: new Set(),
  knowledgeBaseIds: new Set(),
  phoneNumberIds: new Set(),
  labelIds: new Set(),
  toolNames: new Map(),
  eventTypeIds: new Set(),
  assistantIds: new Set(),
  inboundNumberTaken: false,
};
const OWNED: OwnedReferences = {
  folderIds: new Set([10]),
  knowledgeBaseIds: new Set([4]),
  phoneNumberIds: new Set([41]),
  labelIds: new Set([7, 8]),
  toolNames: new Map([
    [21, 'check_order'],
    [22, 'book_slot'],
    [23, 'check_order'],
  ]),
  eventTypeIds: new Set([2]),
  assistantIds: new Set([101, 102]),
  inboundNumberTaken: false,
};
const context = (overrides: Partial<RuleContext> = {}): RuleContext => ({
  catalog: CATALOG,
  owned: OWNED,
  selfId: null,
  targetPolicy: { allowPrivate: false, requireHttps: false },
  ...overrides,
});

/** Rule errors of a create request. */
const createErrors = (changes: AssistantChanges, ctx = context()) => assistantRuleErrors(draft(changes), changes, ctx);

describe('assistantRuleErrors', () => {
  it('accepts a complete, consistent request', () => {
    expect(
      createErrors({
        mode: 'pipeline',
        voiceId: 2,
        languageId: 1,
        secondaryLanguageIds: [3, 5],
        llmModelId: 2,
        chatLlmFallbackId: 1,
        synthesizerProviderId: 2,
        transcriberProviderId: 3,
        folderId: 10,
        knowledgebaseId: 4,
        knowledgebaseMode: 'prompt',
        phoneNumberId: 41,
        labelIds: [7, 8],
        toolIds: [21, 22],
        webhookUrl: 'https://hooks.example.com/x',
        isWebhookActive: true,
        conversationEndedWebhookUrl: 'https://hooks.example.com/y',
        tools: [
          builtInTool({ type: 'calendar_integration', data: { event_type_id: 2 } }),
          builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } }),
        ],
        postCallSchema: [{ name: 'status_note', type: 'string', description: null }],
      }),
    ).toEqual({});
  });

  it.each<[string, AssistantChanges, Record<string, string[]>]>([
    [
      'voice not usable in the mode',
      { mode: 'multimodal', voiceId: 1 },
      { voice_id: [ASSISTANT_MESSAGES.voiceIncompatible] },
    ],
    ['pipeline voice in pipeline', { voiceId: 3 }, {}],
    ['unknown voice', { voiceId: 99 }, { voice_id: ['The selected voice id is invalid.'] }],
    [
      'interruptions off in multimodal',
      { mode: 'multimodal', allowInterruptions: false },
      { allow_interruptions: [ASSISTANT_MESSAGES.interruptionsRequired] },
    ],
    [
      'interruptions off in dualplex',
      { mode: 'dualplex', allowInterruptions: false },
      { allow_interruptions: [ASSISTANT_MESSAGES.interruptionsRequired] },
    ],
    ['interruptions off in pipeline', { allowInterruptions: false }, {}],
    [
      'prompt knowledge base in multimodal',
      { mode: 'multimodal', knowledgebaseId: 4, knowledgebaseMode: 'prompt' },
      { knowledgebase_mode: [ASSISTANT_MESSAGES.functionCallOnly] },
    ],
    [
      'prompt knowledge base in dualplex',
      { mode: 'dualplex', knowledgebaseMode: 'prompt' },
      { knowledgebase_mode: [ASSISTANT_MESSAGES.functionCallOnly] },
    ],
    [
      'webhook on without URL',
      { isWebhookActive: true },
      { webhook_url: ['The webhook url field is required when is webhook active is true.'] },
    ],
    [
      'private webhook URL',
      { webhookUrl: 'http://127.0.0.1/hook' },
      { webhook_url: ['The webhook url must be a public http or https URL.'] },
    ],
    [
      'metadata conversation-ended URL',
      { conversationEndedWebhookUrl: 'http://metadata.google.internal/x' },
      { conversation_ended_webhook_url: ['The conversation ended webhook url must be a public http or https URL.'] },
    ],
    [
      'URL with credentials',
      { webhookUrl: 'https://user:pw@hooks.example.com/' },
      { webhook_url: ['The webhook url must be a public http or https URL.'] },
    ],
    ['unknown language', { languageId: 99 }, { language_id: ['The selected language id is invalid.'] }],
    [
      'unknown secondary language',
      { secondaryLanguageIds: [1, 99] },
      { 'secondary_language_ids.1': ['The selected secondary_language_ids.1 is invalid.'] },
    ],
    ['multimodal model as llm', { llmModelId: 3 }, { llm_model_id: ['The selected llm model id is invalid.'] }],
    [
      'llm as multimodal model',
      { mode: 'multimodal', multimodalModelId: 1 },
      { multimodal_model_id: ['The selected multimodal model id is invalid.'] },
    ],
    [
      'multimodal model as fallback',
      { chatLlmFallbackId: 3 },
      { chat_llm_fallback_id: ['The selected chat llm fallback id is invalid.'] },
    ],
    [
      'transcriber as synthesizer',
      { synthesizerProviderId: 3 },
      { synthesizer_provider_id: ['The selected synthesizer provider id is invalid.'] },
    ],
    [
      'synthesizer as transcriber',
      { transcriberProviderId: 1 },
      { transcriber_provider_id: ['The selected transcriber provider id is invalid.'] },
    ],
    ['transcriber ignored outside the pipeline', { mode: 'multimodal', transcriberProviderId: 1 }, {}],
    ['foreign folder', { folderId: 11 }, { folder_id: ['The selected folder id is invalid.'] }],
    [
      'foreign knowledge base',
      { knowledgebaseId: 5 },
      { knowledgebase_id: ['The selected knowledgebase id is invalid.'] },
    ],
    ['foreign phone number', { phoneNumberId: 42 }, { phone_number_id: ['The selected phone number id is invalid.'] }],
    ['foreign label', { labelIds: [7, 9] }, { 'label_ids.1': ['The selected label_ids.1 is invalid.'] }],
    [
      'foreign tools, by sent index',
      { toolIds: [99, 21, 98] },
      { 'tool_ids.0': ['The selected tool_ids.0 is invalid.'], 'tool_ids.2': ['The selected tool_ids.2 is invalid.'] },
    ],
    [
      'two tools with one name',
      { toolIds: [21, 22, 23] },
      { tool_ids: ['Two attached tools have the same name: check_order.'] },
    ],
    ['one tool sent twice is not a name clash', { toolIds: [21, 21] }, {}],
    [
      'foreign event type',
      {
        tools: [
          builtInTool({ type: 'end_call', data: {} }),
          builtInTool({ type: 'calendar_integration', data: { event_type_id: 3 } }),
        ],
      },
      { 'tools.1.event_type_id': [ASSISTANT_MESSAGES.eventTypeInvalid] },
    ],
    [
      'foreign transfer target',
      { tools: [builtInTool({ type: 'assistant_transfer', data: { assistant_id: 103 } })] },
      { 'tools.0.assistant_id': [ASSISTANT_MESSAGES.assistantInvalid] },
    ],
    [
      'duplicate post-call names',
      {
        postCallSchema: [
          { name: 'a', type: 'int', description: null },
          { name: 'a', type: 'bool', description: null },
        ],
      },
      { 'post_call_schema.1.name': ['The post_call_schema.1.name has already been taken.'] },
    ],
  ])('%s', (_, changes, expected) => {
    expect(createErrors(changes)).toEqual(expected);
  });

  it('reports every failing rule at once', () => {
    expect(
      Object.keys(
        createErrors({
          mode: 'multimodal',
          voiceId: 1,
          allowInterruptions: false,
          folderId: 11,
          isWebhookActive: true,
        }),
      ).sort(),
    ).toEqual(['allow_interruptions', 'folder_id', 'voice_id', 'webhook_url']);
  });

  it('allows private webhook targets only under the development override', () => {
    expect(
      createErrors(
        { webhookUrl: 'http://10.0.0.5/hook' },
        context({ targetPolicy: { allowPrivate: true, requireHttps: false } }),
      ),
    ).toEqual({});
    expect(
      createErrors(
        { webhookUrl: 'http://hooks.example.com/' },
        context({ targetPolicy: { allowPrivate: false, requireHttps: true } }),
      ),
    ).toEqual({ webhook_url: ['The webhook url must be a public http or https URL.'] });
  });

  it('refuses an inbound number another inbound assistant answers on', () => {
    const taken = context({ owned: { ...OWNED, inboundNumberTaken: true } });
    expect(createErrors({ type: 'inbound', phoneNumberId: 41 }, taken)).toEqual({
      phone_number_id: [ASSISTANT_MESSAGES.inboundNumberTaken],
    });
    expect(createErrors({ type: 'outbound', phoneNumberId: 41 }, taken)).toEqual({});
  });

  it('does not let an assistant transfer to itself', () => {
    const stored = draft();
    const changes: AssistantChanges = {
      tools: [builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } })],
    };
    expect(assistantRuleErrors(reviseAssistant(stored, changes, CATALOG), changes, context({ selfId: 101 }))).toEqual({
      'tools.0.assistant_id': [ASSISTANT_MESSAGES.assistantInvalid],
    });
  });

  it('checks stored values against a new mode: stored pipeline voice resets, sent one fails', () => {
    const stored = draft({ voiceId: 2 });
    const reset = reviseAssistant(stored, { mode: 'multimodal' }, CATALOG);
    expect(assistantRuleErrors(reset, { mode: 'multimodal' }, context())).toEqual({});
    const sent: AssistantChanges = { mode: 'multimodal', voiceId: 2 };
    expect(assistantRuleErrors(reviseAssistant(stored, sent, CATALOG), sent, context())).toEqual({
      voice_id: [ASSISTANT_MESSAGES.voiceIncompatible],
    });
  });

  it('refuses clearing the URL while the same request keeps the webhook active', () => {
    const stored = draft({ webhookUrl: 'https://hooks.example.com/x', isWebhookActive: true });
    const changes: AssistantChanges = { webhookUrl: null, isWebhookActive: true };
    expect(assistantRuleErrors(reviseAssistant(stored, changes, CATALOG), changes, context())).toEqual({
      webhook_url: ['The webhook url field is required when is webhook active is true.'],
    });
  });

  it('treats no references as nothing owned', () => {
    expect(createErrors({ folderId: 10 }, context({ owned: NONE }))).toEqual({
      folder_id: ['The selected folder id is invalid.'],
    });
  });
});
