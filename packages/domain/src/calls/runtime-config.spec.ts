import { ASSISTANT_DEFAULTS, AssistantConfig } from '../assistants/assistant';
import { buildRuntimeConfig, toolParameters, WEBHOOK_FIELDS } from './runtime-config';
import { snakeCase } from '../common/case';

const assistant: AssistantConfig = {
  ...ASSISTANT_DEFAULTS,
  name: 'Support',
  voiceId: 1,
  llmModelId: 1,
  multimodalModelId: null,
  knowledgebaseMode: null,
  systemPrompt: 'Be brief.',
  webhookUrl: 'https://hooks.example/calls',
  isWebhookActive: true,
  variables: { company: 'Acme', customer_name: 'Default' },
  tools: [{ type: 'end_call', data: { description: 'Hang up' } }],
};

describe('runtime config', () => {
  it('maps schema types: number → integer, float → number; required names in order', () => {
    expect(
      toolParameters([
        { name: 'order_id', type: 'string', description: 'The order number', required: true },
        { name: 'quantity', type: 'number', description: 'How many', required: false },
        { name: 'price', type: 'float', description: 'Unit price', required: true },
        { name: 'gift', type: 'boolean', description: 'Gift wrap', required: false },
      ]),
    ).toEqual({
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'The order number' },
        quantity: { type: 'integer', description: 'How many' },
        price: { type: 'number', description: 'Unit price' },
        gift: { type: 'boolean', description: 'Gift wrap' },
      },
      required: ['order_id', 'price'],
    });
  });

  it('keeps every assistant field but the webhook ones, merges variables and names the SIP line', () => {
    const config = buildRuntimeConfig({
      direction: 'outbound',
      channel: 'phone',
      customerPhone: '+14155551234',
      assistantId: 101,
      assistant: { ...assistant, secondaryLanguageIds: [5, 3] },
      languageCode: 'en',
      secondaryLanguageCodes: ['de', 'fr'],
      line: {
        phoneNumberId: 41,
        phoneNumber: '+14155550000',
        sip: { outboundTrunkId: 'ST_g7H8i9J0k1L2', callingFormat: '+e164', outboundProxy: false },
      },
      variables: { customer_name: 'Ann' },
      tools: [{ id: 7, name: 'check_order', description: 'Look up an order', schema: [] }],
    });
    expect(config).toEqual({
      direction: 'outbound',
      channel: 'phone',
      customer_phone: '+14155551234',
      assistant_phone: '+14155550000',
      sip: { outbound_trunk_id: 'ST_g7H8i9J0k1L2', calling_format: '+e164', outbound_proxy: false },
      assistant: expect.objectContaining({
        id: 101,
        language: 'en',
        secondary_languages: ['de', 'fr'],
        secondary_language_ids: [5, 3],
        name: 'Support',
        system_prompt: 'Be brief.',
        record: false,
        post_call_evaluation: true,
      }),
      variables: { company: 'Acme', customer_name: 'Ann' },
      tools: [
        {
          id: 7,
          name: 'check_order',
          description: 'Look up an order',
          parameters: { type: 'object', properties: {}, required: [] },
        },
      ],
      builtin_tools: [{ type: 'end_call', data: { description: 'Hang up' } }],
    });
    for (const field of WEBHOOK_FIELDS) expect(config.assistant).not.toHaveProperty(snakeCase(field));
    expect(Object.keys(config.assistant).length).toBe(3 + Object.keys(assistant).length - WEBHOOK_FIELDS.length);
  });

  it('has no SIP block for purchased numbers or the platform line', () => {
    const base = {
      direction: 'outbound',
      channel: 'phone',
      customerPhone: '+14155551234',
      assistantId: 1,
      assistant,
      languageCode: null,
      secondaryLanguageCodes: [],
      variables: {},
      tools: [],
    } as const;
    expect(
      buildRuntimeConfig({ ...base, line: { phoneNumberId: 9, phoneNumber: '+14155550134', sip: null } }).sip,
    ).toBeNull();
    expect(buildRuntimeConfig({ ...base, line: null })).toEqual(
      expect.objectContaining({ sip: null, assistant_phone: null }),
    );
  });
});
