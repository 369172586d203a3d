import {
  ASSISTANT_DEFAULTS,
  AssistantConfig,
  buildRuntimeConfig,
  BuiltInTool,
  newSubstitutionLog,
  RuntimeConfig,
  ToolParameter,
} from '@voiceplane/domain';
import {
  composeInstructions,
  conversationTexts,
  conversationVariables,
  languageName,
  parseToolArguments,
  resolveToolCall,
  substituteVariables,
  toolFunctions,
} from '.';

// Thursday 26 November 2026, 15:30:45 UTC.
const NOW = new Date('2026-11-26T15:30:45.000Z');

function config(
  overrides: Partial<AssistantConfig> = {},
  extra: {
    variables?: Record<string, string>;
    tools?: { id: number; name: string; description: string; schema: ToolParameter[] }[];
    language?: string | null;
    secondary?: string[];
  } = {},
): RuntimeConfig {
  return buildRuntimeConfig({
    direction: 'outbound',
    channel: 'phone',
    customerPhone: '+14155551234',
    assistantId: 101,
    line: { phoneNumberId: 4, phoneNumber: '+14155550000', sip: null },
    assistant: {
      ...ASSISTANT_DEFAULTS,
      name: 'Support',
      voiceId: 1,
      llmModelId: 1,
      multimodalModelId: null,
      knowledgebaseMode: null,
      ...overrides,
    },
    languageCode: extra.language === undefined ? 'en' : extra.language,
    secondaryLanguageCodes: extra.secondary ?? [],
    variables: extra.variables ?? {},
    tools: extra.tools ?? [],
  });
}

describe('conversation policy: instructions', () => {
  it('substitutes variables, call variables over assistant variables, spaces inside braces allowed, one pass', () => {
    const c = config(
      {
        systemPrompt: 'You work for {{company}}. The customer is {{ customer_name }}. Quote: {{quote}}.',
        variables: { company: 'Acme', customer_name: 'Default', quote: '{{company}}' },
      },
      { variables: { customer_name: 'Ann' } },
    );
    expect(composeInstructions(c, NOW).split('\n\n')[0]).toBe(
      'You work for Acme. The customer is Ann. Quote: {{company}}.',
    );
  });

  it('still applies the assistant variables when the config carries only the call variables', () => {
    const c = config({ systemPrompt: 'Hi {{company}} {{name}}', variables: { company: 'Acme', name: 'Default' } });
    const onlyCall: RuntimeConfig = { ...c, variables: { name: 'Ann' } };
    expect(substituteVariables(c.assistant.system_prompt, onlyCall, NOW)).toBe('Hi Acme Ann');
  });

  it('replaces a missing variable with nothing and reports it; single braces stay text', () => {
    const c = config({ systemPrompt: 'Order {order_id} for [{{missing}}] and [{{ also_missing }}].' });
    const log = newSubstitutionLog();
    expect(substituteVariables(c.assistant.system_prompt, c, NOW, log)).toBe('Order {order_id} for [] and [].');
    expect([...log.unresolved]).toEqual(['missing', 'also_missing']);
  });

  it("knows the system values: phones, direction, channel and the date in the assistant's zone; not the call id", () => {
    const c = config({
      timezone: 'Asia/Tokyo',
      systemPrompt:
        '{{customer_phone}} {{assistant_phone}} {{direction}} {{channel}} {{assistant_id}} {{current_date}} {{current_time}} {{current_datetime}} {{timezone}} [{{call_id}}]',
    });
    expect(substituteVariables(c.assistant.system_prompt, c, NOW)).toBe(
      '+14155551234 +14155550000 outbound phone 101 2026-11-27 00:30 2026-11-27T00:30:45+09:00 Asia/Tokyo []',
    );
    expect(conversationVariables(c, NOW).has('call_id')).toBe(false);
  });

  it('a call variable cannot pretend to be a system value', () => {
    const c = config({ systemPrompt: '{{customer_phone}}' }, { variables: { customer_phone: '+10000000000' } });
    expect(substituteVariables(c.assistant.system_prompt, c, NOW)).toBe('+14155551234');
  });

  it("names the language, the secondary languages and the local time in the assistant's zone", () => {
    const c = config(
      { systemPrompt: '  Be brief.  ', timezone: 'Europe/Berlin' },
      { language: 'de', secondary: ['en', 'fr', 'de'] },
    );
    expect(composeInstructions(c, NOW)).toBe(
      [
        'Be brief.',
        'Speak German (de). If the customer speaks English (en) or French (fr), answer in that language.',
        'The current local time is Thursday, 2026-11-26 16:30 (Europe/Berlin, UTC+01:00).',
      ].join('\n\n'),
    );
  });

  it('follows the zone across the date line and daylight saving time, and falls back to UTC for an unknown zone', () => {
    const at = (timezone: string, now: Date) => composeInstructions(config({ timezone }), now).split('\n\n').pop();
    expect(at('America/Los_Angeles', NOW)).toBe(
      'The current local time is Thursday, 2026-11-26 07:30 (America/Los_Angeles, UTC-08:00).',
    );
    expect(at('America/Los_Angeles', new Date('2026-07-01T03:00:00Z'))).toBe(
      'The current local time is Tuesday, 2026-06-30 20:00 (America/Los_Angeles, UTC-07:00).',
    );
    expect(at('Asia/Kolkata', NOW)).toBe(
      'The current local time is Thursday, 2026-11-26 21:00 (Asia/Kolkata, UTC+05:30).',
    );
    expect(at('Mars/Olympus', NOW)).toBe('The current local time is Thursday, 2026-11-26 15:30 (UTC, UTC+00:00).');
  });

  it('leaves out an empty prompt and an unknown language; a config stored before secondary languages still works', () => {
    const c = config({}, { language: null });
    expect(composeInstructions(c, NOW)).toBe('The current local time is Thursday, 2026-11-26 15:30 (UTC, UTC+00:00).');
    const { secondary_languages: _, ...older } = config({}, { secondary: ['fr'] }).assistant;
    expect(composeInstructions({ ...c, assistant: { ...older, language: 'en' } }, NOW).split('\n\n')[0]).toBe(
      'Speak English (en).',
    );
    expect(composeInstructions(config({}, { language: null, secondary: ['es', 'it'] }), NOW).split('\n\n')[0]).toBe(
      "Speak the customer's language among: Spanish (es), Italian (it).",
    );
  });

  it('names a language by its code when it does not know it', () => {
    expect(languageName('he')).toBe('Hebrew (he)');
    expect(languageName('qq')).toBe('qq');
    expect(languageName('not a code')).toBe('not a code');
  });

  it('fills the spoken texts with the same variables and collects what was missing', () => {
    const c = config(
      {
        systemPrompt: 'For {{company}}.',
        initialMessage: 'Hello {{customer_name}}, this is {{company}}.',
        reengagementPrompt: 'Are you still there, {{customer_name}}?',
        voiceMailMessage: 'Please call {{company}} back at {{callback}}.',
        variables: { company: 'Acme' },
      },
      { variables: { customer_name: 'Ann' } },
    );
    expect(conversationTexts(c, NOW)).toEqual({
      instructions: expect.stringMatching(/^For Acme\.\n\nSpeak English \(en\)\./),
      initialMessage: 'Hello Ann, this is Acme.',
      reengagementPrompt: 'Are you still there, Ann?',
      voiceMailMessage: 'Please call Acme back at .',
      unresolved: ['callback'],
    });
    expect(conversationTexts(config(), NOW)).toEqual(
      expect.objectContaining({ initialMessage: '', reengagementPrompt: null, voiceMailMessage: null, unresolved: [] }),
    );
  });
});

describe('conversation policy: tool functions', () => {
  const checkOrder = {
    id: 7,
    name: 'check_order',
    description: 'Look up an order',
    schema: [
      { name: 'order_id', type: 'string', description: 'The order number', required: true },
      { name: 'quantity', type: 'number', description: 'How many', required: false },
      { name: 'price', type: 'float', description: 'Unit price', required: true },
      { name: 'gift', type: 'boolean', description: 'Gift wrap', required: false },
    ] as ToolParameter[],
  };
  const allBuiltIns: BuiltInTool[] = [
    { type: 'end_call', data: { description: null } },
    {
      type: 'call_transfer',
      data: { description: null, phone_number: '+14155550100', warm_transfer: false, warm_transfer_message: null },
    },
    { type: 'dtmf_input', data: { description: null } },
    { type: 'collect_keypad', data: { description: null, timeout: 5, stop_key: '#' } },
    { type: 'calendar_integration', data: { description: null, event_type_id: 2 } },
    {
      type: 'assistant_transfer',
      data: { description: null, assistant_id: 102, message_before_transfer: null, speak_transfer_greeting: true },
    },
  ];

  it('maps every schema type of a mid-call tool: string, number → integer, float → number, boolean', () => {
    expect(toolFunctions(config({}, { tools: [checkOrder] }))).toEqual([
      {
        name: 'check_order',
        description: 'Look up an order',
        parameters: {
          type: 'object',
          properties: {
            order_id: { type: 'string', description: 'The order number' },
            quantity: { type: 'integer', description: 'How many' },
            price: { type: 'number', description: 'Unit price' },
            gift: { type: 'boolean', description: 'Gift wrap' },
          },
          required: ['order_id', 'price'],
        },
      },
    ]);
  });

  it('offers every built-in with the arguments it needs, after the mid-call tools', () => {
    const functions = toolFunctions(config({ tools: allBuiltIns }, { tools: [checkOrder] }));
    expect(functions.map((f) => f.name)).toEqual([
      'check_order',
      'end_call',
      'call_transfer',
      'dtmf_input',
      'collect_keypad',
      'calendar_integration',
      'assistant_transfer',
    ]);
    const byName = Object.fromEntries(functions.map((f) => [f.name, f]));
    for (const name of ['end_call', 'call_transfer', 'collect_keypad', 'assistant_transfer'])
      expect(byName[name].parameters).toEqual({ type: 'object', properties: {}, required: [] });
    expect(byName.dtmf_input.parameters.required).toEqual(['digits']);
    expect(byName.dtmf_input.parameters.properties.digits).toEqual(
      expect.objectContaining({ type: 'string', pattern: '^[0-9*#]{1,32}$' }),
    );
    expect(byName.calendar_integration.parameters).toEqual(
      expect.objectContaining({ required: ['start_time', 'name'] }),
    );
    expect(Object.keys(byName.calendar_integration.parameters.properties)).toEqual(['start_time', 'name', 'email']);
    expect(byName.collect_keypad.description).toContain('ended by # or 5 seconds');
    for (const f of functions) expect(f.description.length).toBeGreaterThan(10);
    // The transfer number is the assistant's business, not the model's.
    expect(JSON.stringify(functions)).not.toContain('+14155550100');
  });

  it("uses the assistant's own description of a built-in; a warm transfer says so", () => {
    const [end, warm] = toolFunctions(
      config({
        tools: [
          { type: 'end_call', data: { description: '  Hang up once the order is confirmed.  ' } },
          {
            type: 'call_transfer',
            data: {
              description: '',
              phone_number: '+14155550100',
              warm_transfer: true,
              warm_transfer_message: 'Ann asks about A-1',
            },
          },
        ],
      }),
    );
    expect(end.description).toBe('Hang up once the order is confirmed.');
    expect(warm.description).toContain('briefed');
  });

  it('keeps names unique: a second built-in of a type and a built-in named like a mid-call tool get a suffix', () => {
    const sales = {
      type: 'call_transfer',
      data: {
        description: 'To sales',
        phone_number: '+14155550101',
        warm_transfer: false,
        warm_transfer_message: null,
      },
    } as const;
    const support = {
      type: 'call_transfer',
      data: {
        description: 'To support',
        phone_number: '+14155550102',
        warm_transfer: false,
        warm_transfer_message: null,
      },
    } as const;
    const c = config(
      { tools: [sales, support, { type: 'end_call', data: { description: null } }] },
      { tools: [{ id: 9, name: 'end_call', description: 'A user tool', schema: [] }] },
    );
    expect(toolFunctions(c).map((f) => f.name)).toEqual(['end_call', 'call_transfer', 'call_transfer_2', 'end_call_2']);
    expect(resolveToolCall(c, 'call_transfer_2')).toEqual({
      kind: 'builtin',
      name: 'call_transfer_2',
      builtin: support,
    });
    expect(resolveToolCall(c, 'end_call')).toEqual(
      expect.objectContaining({ kind: 'tool', tool: expect.objectContaining({ id: 9 }) }),
    );
    expect(resolveToolCall(c, 'end_call_2')).toEqual(
      expect.objectContaining({ kind: 'builtin', builtin: { type: 'end_call', data: { description: null } } }),
    );
  });

  it('tells a built-in call from a mid-call tool call and a made-up name', () => {
    const c = config({ tools: allBuiltIns }, { tools: [checkOrder] });
    expect(resolveToolCall(c, 'check_order')).toEqual({
      kind: 'tool',
      name: 'check_order',
      tool: expect.objectContaining({ id: 7, name: 'check_order' }),
    });
    for (const builtin of allBuiltIns)
      expect(resolveToolCall(c, builtin.type)).toEqual({ kind: 'builtin', name: builtin.type, builtin });
    expect(resolveToolCall(c, 'delete_everything')).toBeNull();
    expect(toolFunctions(config())).toEqual([]);
  });

  it('reads the arguments text of a call: a JSON object, nothing, or garbage', () => {
    expect(parseToolArguments('{"order_id":"A-1","quantity":2}')).toEqual({ order_id: 'A-1', quantity: 2 });
    expect(parseToolArguments('')).toEqual({});
    expect(parseToolArguments(undefined)).toEqual({});
    expect(parseToolArguments('[1]')).toBeNull();
    expect(parseToolArguments('null')).toBeNull();
    expect(parseToolArguments('{"order_id":')).toBeNull();
  });
});
