import { activate as activateWithProblems, ASSISTANT_DEFAULTS, AssistantConfig } from '@voiceplane/domain';
import { fieldErrors } from '../../pipeline/field-messages';
import { ACTIVATION_FIELD_MESSAGES } from './assistant-messages';

/** The domain's activation decision with missing settings as the client reads them. */
function activate(assistant: Parameters<typeof activateWithProblems>[0]) {
  const decision = activateWithProblems(assistant);
  if (decision.ok || decision.error.code !== 'incomplete') return decision;
  return {
    ok: false,
    error: { code: 'incomplete', errors: fieldErrors(decision.error.problems, ACTIVATION_FIELD_MESSAGES) },
  };
}

const ready: AssistantConfig & { complianceBlocked: boolean } = {
  ...ASSISTANT_DEFAULTS,
  name: 'Support',
  voiceId: 1,
  llmModelId: 1,
  multimodalModelId: null,
  knowledgebaseMode: null,
  systemPrompt: 'Be brief.',
  complianceBlocked: false,
};

describe('activation requirements', () => {
  it.each<[string, Partial<typeof ready>, Record<string, string[]>]>([
    ['empty system prompt', { systemPrompt: '' }, { system_prompt: ['The system prompt field is required.'] }],
    ['blank system prompt', { systemPrompt: '   ' }, { system_prompt: ['The system prompt field is required.'] }],
    ['no voice', { voiceId: null }, { voice_id: ['The voice id field is required.'] }],
    ['pipeline without llm', { llmModelId: null }, { llm_model_id: ['The llm model id field is required.'] }],
    [
      'multimodal without multimodal model',
      { mode: 'multimodal', multimodalModelId: null },
      { multimodal_model_id: ['The multimodal model id field is required.'] },
    ],
    [
      'dualplex without multimodal model',
      { mode: 'dualplex', multimodalModelId: null, llmModelId: null },
      { multimodal_model_id: ['The multimodal model id field is required.'] },
    ],
    ['inbound without a number', { type: 'inbound' }, { phone_number_id: ['The phone number id field is required.'] }],
    [
      'everything missing',
      { type: 'inbound', systemPrompt: '', voiceId: null, llmModelId: null },
      {
        voice_id: ['The voice id field is required.'],
        system_prompt: ['The system prompt field is required.'],
        llm_model_id: ['The llm model id field is required.'],
        phone_number_id: ['The phone number id field is required.'],
      },
    ],
  ])('refuses: %s', (_, over, errors) => {
    expect(activate({ ...ready, ...over })).toEqual({ ok: false, error: { code: 'incomplete', errors } });
  });

  it.each<[string, Partial<typeof ready>]>([
    ['a complete pipeline assistant', {}],
    ['a multimodal assistant without an llm', { mode: 'multimodal', multimodalModelId: 3, llmModelId: null }],
    ['an inbound assistant with a number', { type: 'inbound', phoneNumberId: 41 }],
  ])('accepts %s', (_, over) => {
    expect(activate({ ...ready, ...over })).toEqual({ ok: true, value: 'active' });
  });

  it('refuses a compliance-blocked assistant before looking at its settings', () => {
    expect(activate({ ...ready, systemPrompt: '', complianceBlocked: true })).toEqual({
      ok: false,
      error: { code: 'compliance_blocked' },
    });
  });
});
