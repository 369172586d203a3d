import {
  AssistantChanges, assistantRuleProblems, builtInTool, draftAssistant, OwnedReferences, ReferenceCatalog, reviseAssistant, RuleContext,
} from '@voiceplane/domain';
import { fieldErrors } from '../../pipeline/field-messages';
import { ASSISTANT_FIELD_MESSAGES, ASSISTANT_MESSAGES } from './assistant-messages';

/** The domain's rule problems as the client reads them. */
const assistantRuleErrors = (...args: Parameters<typeof assistantRuleProblems>) => fieldErrors(assistantRuleProblems(...args), ASSISTANT_FIELD_MESSAGES);

/** The shipped catalogue of CONTRACT §3.10 (as in the domain's drafting tests), for rule tests. */
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

const NONE: OwnedReferences = {
  folderIds: new Set(), knowledgeBaseIds: new Set(), phoneNumberIds: new Set(), labelIds: new Set(), toolNames: new Map(),
  eventTypeIds: new Set(), assistantIds: new Set(), inboundNumberTaken: false,
};
const OWNED: OwnedReferences = {
  folderIds: new Set([10]), knowledgeBaseIds: new Set([4]), phoneNumberIds: new Set([41]), labelIds: new Set([7, 8]),
  toolNames: new Map([[21, 'check_order'], [22, 'book_slot'], [23, 'check_order']]), eventTypeIds: new Set([2]),
  assistantIds: new Set([101, 102]), inboundNumberTaken: false,
};
const context = (overrides: Partial<RuleContext> = {}): RuleContext => ({
  catalog: CATALOG, owned: OWNED, selfId: null, targetPolicy: { allowPrivate: false, requireHttps: false }, ...overrides,
});

/** Rule errors of a create request. */
const createErrors = (changes: AssistantChanges, ctx = context()) => assistantRuleErrors(draft(changes), changes, ctx);

describe('assistantRuleErrors (CONTRACT §3.2)', () => {
  it('accepts a complete, consistent request', () => {
    expect(createErrors({
      mode: 'pipeline', voice_id: 2, language_id: 1, secondary_language_ids: [3, 5], llm_model_id: 2, chat_llm_fallback_id: 1,
      synthesizer_provider_id: 2, transcriber_provider_id: 3, folder_id: 10, knowledgebase_id: 4, knowledgebase_mode: 'prompt',
      phone_number_id: 41, label_ids: [7, 8], tool_ids: [21, 22], webhook_url: 'https://hooks.example.com/x', is_webhook_active: true,
      conversation_ended_webhook_url: 'https://hooks.example.com/y',
      tools: [builtInTool({ type: 'calendar_integration', data: { event_type_id: 2 } }), builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } })],
      post_call_schema: [{ name: 'status_note', type: 'string', description: null }],
    })).toEqual({});
  });

  it.each<[string, AssistantChanges, Record<string, string[]>]>([
    ['voice not usable in the mode', { mode: 'multimodal', voice_id: 1 }, { voice_id: [ASSISTANT_MESSAGES.voiceIncompatible] }],
    ['pipeline voice in pipeline', { voice_id: 3 }, {}],
    ['unknown voice', { voice_id: 99 }, { voice_id: ['The selected voice id is invalid.'] }],
    ['interruptions off in multimodal', { mode: 'multimodal', allow_interruptions: false }, { allow_interruptions: [ASSISTANT_MESSAGES.interruptionsRequired] }],
    ['interruptions off in dualplex', { mode: 'dualplex', allow_interruptions: false }, { allow_interruptions: [ASSISTANT_MESSAGES.interruptionsRequired] }],
    ['interruptions off in pipeline', { allow_interruptions: false }, {}],
    ['prompt knowledge base in multimodal', { mode: 'multimodal', knowledgebase_id: 4, knowledgebase_mode: 'prompt' }, { knowledgebase_mode: [ASSISTANT_MESSAGES.functionCallOnly] }],
    ['prompt knowledge base in dualplex', { mode: 'dualplex', knowledgebase_mode: 'prompt' }, { knowledgebase_mode: [ASSISTANT_MESSAGES.functionCallOnly] }],
    ['webhook on without URL', { is_webhook_active: true }, { webhook_url: ['The webhook url field is required when is webhook active is true.'] }],
    ['private webhook URL', { webhook_url: 'http://127.0.0.1/hook' }, { webhook_url: ['The webhook url must be a public http or https URL.'] }],
    ['metadata conversation-ended URL', { conversation_ended_webhook_url: 'http://metadata.google.internal/x' }, { conversation_ended_webhook_url: ['The conversation ended webhook url must be a public http or https URL.'] }],
    ['URL with credentials', { webhook_url: 'https://user:pw@hooks.example.com/' }, { webhook_url: ['The webhook url must be a public http or https URL.'] }],
    ['unknown language', { language_id: 99 }, { language_id: ['The selected language id is invalid.'] }],
    ['unknown secondary language', { secondary_language_ids: [1, 99] }, { 'secondary_language_ids.1': ['The selected secondary_language_ids.1 is invalid.'] }],
    ['multimodal model as llm', { llm_model_id: 3 }, { llm_model_id: ['The selected llm model id is invalid.'] }],
    ['llm as multimodal model', { mode: 'multimodal', multimodal_model_id: 1 }, { multimodal_model_id: ['The selected multimodal model id is invalid.'] }],
    ['multimodal model as fallback', { chat_llm_fallback_id: 3 }, { chat_llm_fallback_id: ['The selected chat llm fallback id is invalid.'] }],
    ['transcriber as synthesizer', { synthesizer_provider_id: 3 }, { synthesizer_provider_id: ['The selected synthesizer provider id is invalid.'] }],
    ['synthesizer as transcriber', { transcriber_provider_id: 1 }, { transcriber_provider_id: ['The selected transcriber provider id is invalid.'] }],
    ['transcriber ignored outside the pipeline', { mode: 'multimodal', transcriber_provider_id: 1 }, {}],
    ['foreign folder', { folder_id: 11 }, { folder_id: ['The selected folder id is invalid.'] }],
    ['foreign knowledge base', { knowledgebase_id: 5 }, { knowledgebase_id: ['The selected knowledgebase id is invalid.'] }],
    ['foreign phone number', { phone_number_id: 42 }, { phone_number_id: ['The selected phone number id is invalid.'] }],
    ['foreign label', { label_ids: [7, 9] }, { 'label_ids.1': ['The selected label_ids.1 is invalid.'] }],
    ['foreign tools, by sent index', { tool_ids: [99, 21, 98] }, { 'tool_ids.0': ['The selected tool_ids.0 is invalid.'], 'tool_ids.2': ['The selected tool_ids.2 is invalid.'] }],
    ['two tools with one name', { tool_ids: [21, 22, 23] }, { tool_ids: ['Two attached tools have the same name: check_order.'] }],
    ['one tool sent twice is not a name clash', { tool_ids: [21, 21] }, {}],
    ['foreign event type', { tools: [builtInTool({ type: 'end_call', data: {} }), builtInTool({ type: 'calendar_integration', data: { event_type_id: 3 } })] }, { 'tools.1.event_type_id': [ASSISTANT_MESSAGES.eventTypeInvalid] }],
    ['foreign transfer target', { tools: [builtInTool({ type: 'assistant_transfer', data: { assistant_id: 103 } })] }, { 'tools.0.assistant_id': [ASSISTANT_MESSAGES.assistantInvalid] }],
    ['duplicate post-call names', { post_call_schema: [{ name: 'a', type: 'int', description: null }, { name: 'a', type: 'bool', description: null }] }, { 'post_call_schema.1.name': ['The post_call_schema.1.name has already been taken.'] }],
  ])('%s', (_, changes, expected) => {
    expect(createErrors(changes)).toEqual(expected);
  });

  it('reports every failing rule at once', () => {
    expect(Object.keys(createErrors({ mode: 'multimodal', voice_id: 1, allow_interruptions: false, folder_id: 11, is_webhook_active: true })).sort())
      .toEqual(['allow_interruptions', 'folder_id', 'voice_id', 'webhook_url']);
  });

  it('allows private webhook targets only under the development override', () => {
    expect(createErrors({ webhook_url: 'http://10.0.0.5/hook' }, context({ targetPolicy: { allowPrivate: true, requireHttps: false } }))).toEqual({});
    expect(createErrors({ webhook_url: 'http://hooks.example.com/' }, context({ targetPolicy: { allowPrivate: false, requireHttps: true } })))
      .toEqual({ webhook_url: ['The webhook url must be a public http or https URL.'] });
  });

  it('refuses an inbound number another inbound assistant answers on', () => {
    const taken = context({ owned: { ...OWNED, inboundNumberTaken: true } });
    expect(createErrors({ type: 'inbound', phone_number_id: 41 }, taken)).toEqual({ phone_number_id: [ASSISTANT_MESSAGES.inboundNumberTaken] });
    expect(createErrors({ type: 'outbound', phone_number_id: 41 }, taken)).toEqual({});
  });

  it('does not let an assistant transfer to itself', () => {
    const stored = draft();
    const changes: AssistantChanges = { tools: [builtInTool({ type: 'assistant_transfer', data: { assistant_id: 101 } })] };
    expect(assistantRuleErrors(reviseAssistant(stored, changes, CATALOG), changes, context({ selfId: 101 })))
      .toEqual({ 'tools.0.assistant_id': [ASSISTANT_MESSAGES.assistantInvalid] });
  });

  it('checks stored values against a new mode: stored pipeline voice resets, sent one fails', () => {
    const stored = draft({ voice_id: 2 });
    const reset = reviseAssistant(stored, { mode: 'multimodal' }, CATALOG);
    expect(assistantRuleErrors(reset, { mode: 'multimodal' }, context())).toEqual({});
    const sent: AssistantChanges = { mode: 'multimodal', voice_id: 2 };
    expect(assistantRuleErrors(reviseAssistant(stored, sent, CATALOG), sent, context())).toEqual({ voice_id: [ASSISTANT_MESSAGES.voiceIncompatible] });
  });

  it('refuses clearing the URL while the same request keeps the webhook active', () => {
    const stored = draft({ webhook_url: 'https://hooks.example.com/x', is_webhook_active: true });
    const changes: AssistantChanges = { webhook_url: null, is_webhook_active: true };
    expect(assistantRuleErrors(reviseAssistant(stored, changes, CATALOG), changes, context()))
      .toEqual({ webhook_url: ['The webhook url field is required when is webhook active is true.'] });
  });

  it('treats no references as nothing owned', () => {
    expect(createErrors({ folder_id: 10 }, context({ owned: NONE }))).toEqual({ folder_id: ['The selected folder id is invalid.'] });
  });
});
