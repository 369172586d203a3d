import { ok } from '../common/result';
import {
  DEFAULT_NOTE_TEMPLATE,
  findTemplate,
  TEMPLATE_CATALOGUE,
  TEMPLATE_KEYS,
  TemplateParams,
  variableFieldNames,
} from './catalogue';
import { parseDefinition } from './definition';
import { AutomationDefinition } from './step-kinds';

/** Each param at its catalogue example, coerced the way an automation stores it. */
const exampleParams: Record<string, TemplateParams> = {
  lead_intake_call: {
    test_phone_number: '+14155551234',
    phone_field: 'phone',
    name_field: 'name',
    variable_fields: 'email,interest',
  },
  post_call_chatapp_followup: {
    sender_id: 12,
    template_id: 34,
    variables_map: { '1': '{{call.extracted_variables.customer_name}}' },
    test_phone_number: '+14155551234',
  },
  post_call_webhook_forward: { url: 'https://hooks.example.com/calls', include_transcript: true },
  midcall_lookup_table: {
    table_id: 7,
    key_column: 'order_number',
    input_field: 'key',
    tool_name: 'lookup_orders',
    tool_description: 'Find an order by its number',
  },
  delayed_followup_call: { delay_minutes: 60, test_phone_number: '+14155551234', max_attempts: 1 },
  crm_note_on_call: { connection_id: 3, note_template: DEFAULT_NOTE_TEMPLATE },
  conversation_webhook_forward: { url: 'https://hooks.example.com/conversations', include_transcript: true },
};
const requiredOnly = (key: string): TemplateParams =>
  Object.fromEntries(
    Object.entries(exampleParams[key]).filter(([k]) => findTemplate(key)?.params.find((p) => p.key === k)?.required),
  );

const build = (key: string, params: TemplateParams, assistantId: number | null = 101): AutomationDefinition =>
  (findTemplate(key) as NonNullable<ReturnType<typeof findTemplate>>).definition(params, assistantId);

describe('template catalogue', () => {
  it('holds the templates in catalogue order', () => {
    expect(TEMPLATE_CATALOGUE.map((t) => t.key)).toEqual(TEMPLATE_KEYS);
    expect(findTemplate('nope')).toBeNull();
  });

  it.each(TEMPLATE_CATALOGUE.map((t) => [t.key, t] as const))(
    '%s: its definition passes the structural validation, with example and with only required params',
    (key, t) => {
      for (const params of [exampleParams[key], requiredOnly(key)]) {
        const definition = t.definition(params, t.requiresAssistant ? 101 : null);
        expect(parseDefinition(definition)).toEqual(ok(definition));
        expect([t.steps[0], ...definition.steps.map((s) => s.name)]).toEqual(t.steps);
        expect(definition.trigger).toMatchObject(t.trigger);
      }
    },
  );

  it.each(TEMPLATE_CATALOGUE.map((t) => [t.key, t] as const))(
    '%s: param specs have exactly the catalogue keys and string examples',
    (_key, t) => {
      for (const p of t.params) {
        expect(Object.keys(p)).toEqual(['key', 'label', 'description', 'required', 'example']);
        expect(typeof p.example).toBe('string');
      }
    },
  );

  it.each([
    [
      'lead_intake_call',
      { kind: 'trigger.webhook', mode: 'async' },
      true,
      true,
      'webhook',
      null,
      ['webhook_trigger', 'validate_phone', 'place_call'],
      ['test_phone_number'],
    ],
    [
      'post_call_chatapp_followup',
      { kind: 'trigger.assistant_event', event: 'call.ended' },
      true,
      true,
      'assistant_event',
      null,
      ['call_ended_trigger', 'check_completed', 'send_template'],
      ['sender_id', 'template_id', 'test_phone_number'],
    ],
    [
      'post_call_webhook_forward',
      { kind: 'trigger.assistant_event', event: 'call.ended' },
      true,
      false,
      'assistant_event',
      null,
      ['call_ended_trigger', 'forward_webhook'],
      ['url'],
    ],
    [
      'midcall_lookup_table',
      { kind: 'trigger.webhook', mode: 'sync' },
      false,
      false,
      'webhook',
      null,
      ['webhook_trigger', 'lookup_row', 'respond'],
      ['table_id', 'key_column'],
    ],
    [
      'delayed_followup_call',
      { kind: 'trigger.assistant_event', event: 'call.ended' },
      true,
      true,
      'assistant_event',
      null,
      ['call_ended_trigger', 'check_unanswered', 'wait', 'place_call'],
      ['delay_minutes', 'test_phone_number'],
    ],
    [
      'crm_note_on_call',
      { kind: 'trigger.assistant_event', event: 'call.ended' },
      true,
      false,
      'assistant_event',
      'http_api',
      ['call_ended_trigger', 'push_note'],
      ['connection_id'],
    ],
  ])(
    '%s: properties of its table',
    (key, trigger, requiresAssistant, sideEffects, bindingType, needsConnection, steps, required) => {
      const t = findTemplate(key);
      expect(t).toMatchObject({ trigger, requiresAssistant, sideEffects, bindingType, needsConnection, steps });
      expect(t?.params.filter((p) => p.required).map((p) => p.key)).toEqual(required);
    },
  );

  it('the chat-app follow-up is the documented example definition', () => {
    expect(build('post_call_chatapp_followup', requiredOnly('post_call_chatapp_followup'))).toEqual({
      trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
      steps: [
        {
          name: 'check_completed',
          kind: 'condition',
          config: { field: '{{call.status}}', op: 'eq', value: 'completed' },
        },
        {
          name: 'send_template',
          kind: 'chatapp.send_template',
          config: { sender_id: 12, template_id: 34, to: '{{call.customer_phone}}' },
        },
      ],
    });
    expect(build('post_call_chatapp_followup', exampleParams.post_call_chatapp_followup).steps[1].config).toMatchObject(
      { variables: { '1': '{{call.extracted_variables.customer_name}}' } },
    );
  });

  it('lead intake reads the configured fields; the name and extra variables are optional', () => {
    const d = build(
      'lead_intake_call',
      {
        test_phone_number: '+14155551234',
        phone_field: 'contact.mobile',
        name_field: 'full_name',
        variable_fields: ' email , ,interest',
      },
      55,
    );
    expect(d.steps).toEqual([
      { name: 'validate_phone', kind: 'validate.phone', config: { field: '{{trigger.contact.mobile}}' } },
      {
        name: 'place_call',
        kind: 'voice.make_call',
        config: {
          assistant_id: 55,
          to: '{{steps.validate_phone.output.phone}}',
          optional_variables: {
            customer_name: '{{trigger.full_name}}',
            email: '{{trigger.email}}',
            interest: '{{trigger.interest}}',
          },
        },
      },
    ]);
    expect(build('lead_intake_call', requiredOnly('lead_intake_call')).steps.map((s) => s.config)).toEqual([
      { field: '{{trigger.phone}}' },
      {
        assistant_id: 101,
        to: '{{steps.validate_phone.output.phone}}',
        optional_variables: { customer_name: '{{trigger.name}}' },
      },
    ]);
  });

  it('variable_fields is a comma-separated list', () => {
    expect(variableFieldNames('a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(variableFieldNames(undefined)).toEqual([]);
  });

  it('the forward drops the transcript only when include_transcript is false', () => {
    expect(
      build('post_call_webhook_forward', { url: 'https://x.example/h', include_transcript: false }).steps[0].config,
    ).toEqual({
      method: 'POST',
      url: 'https://x.example/h',
      body: '{{trigger.call}}',
      omit_fields: ['transcript'],
    });
    expect(build('post_call_webhook_forward', { url: 'https://x.example/h' }).steps[0].config).not.toHaveProperty(
      'omit_fields',
    );
  });

  it('the lookup reads input_field (default key) and replies with the lookup output', () => {
    expect(build('midcall_lookup_table', { table_id: 7, key_column: 'order_number' }, null).steps).toEqual([
      {
        name: 'lookup_row',
        kind: 'table.lookup',
        config: { table_id: 7, key_column: 'order_number', value: '{{trigger.key}}' },
      },
      { name: 'respond', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
    ]);
    expect(
      build('midcall_lookup_table', { table_id: 7, key_column: 'sku', input_field: 'product' }, null).steps[0].config,
    ).toMatchObject({ value: '{{trigger.product}}' });
  });

  it('the delayed follow-up waits delay_minutes and calls the customer back with the call variables', () => {
    expect(
      build('delayed_followup_call', { delay_minutes: 15, test_phone_number: '+14155551234' }, 9).steps.map(
        (s) => s.config,
      ),
    ).toEqual([
      { field: '{{call.status}}', op: 'in', value: ['no-answer', 'busy', 'failed'] },
      { minutes: 15 },
      { assistant_id: 9, to: '{{call.customer_phone}}', variables: '{{call.input_variables}}' },
    ]);
  });

  it('the CRM note posts phone, text, call_id, assistant_id and occurred_at; the text defaults to the example', () => {
    expect(build('crm_note_on_call', { connection_id: 3 }).steps[0].config).toEqual({
      connection_id: 3,
      note: {
        phone: '{{call.customer_phone}}',
        text: DEFAULT_NOTE_TEMPLATE,
        call_id: '{{call.id}}',
        assistant_id: '{{trigger.assistant_id}}',
        occurred_at: '{{call.finished_at}}',
      },
    });
    expect(
      build('crm_note_on_call', { connection_id: 3, note_template: 'Hi {{call.id}}' }).steps[0].config,
    ).toMatchObject({ note: { text: 'Hi {{call.id}}' } });
  });

  it.each(TEMPLATE_CATALOGUE.map((t) => [t.key, t] as const))(
    '%s: declares exactly the resources its params name',
    (_key, t) => {
      const names = (key: string) => t.params.some((p) => p.key === key);
      expect(t.resources.includes('connection')).toBe(names('connection_id'));
      expect(t.resources.includes('connection')).toBe(t.needsConnection !== null);
      expect(t.resources.includes('data_table')).toBe(names('table_id'));
      expect(t.resources.includes('chatapp_template')).toBe(names('sender_id'));
    },
  );

  it('only the lookup binds a tool; its name, description and input field default from the table', () => {
    expect(TEMPLATE_CATALOGUE.filter((t) => t.tool).map((t) => t.key)).toEqual(['midcall_lookup_table']);
    const tool = findTemplate('midcall_lookup_table')!.tool!;
    expect(tool({ table_id: 7, key_column: 'order_number' }, 'Open Orders (2026)')).toEqual({
      name: 'lookup_open_orders_2026',
      description: 'Look up a record in Open Orders (2026) by order_number.',
      inputField: 'key',
      keyColumn: 'order_number',
    });
    expect(tool(exampleParams.midcall_lookup_table, 'Orders')).toEqual({
      name: 'lookup_orders',
      description: 'Find an order by its number',
      inputField: 'key',
      keyColumn: 'order_number',
    });
    expect(tool({ table_id: 7, key_column: 'k' }, `__${'x'.repeat(80)}`).name).toHaveLength(64);
  });
});
