import { atPath, deepMerge, isJsonObject, JsonObject, JsonValue } from './json';
import { eventSample } from './kinds/trigger-events';
import { ASYNC_WEBHOOK_MODE, AutomationDefinition, AutomationTrigger, triggerStepName } from './step-kinds';

/** A param as the catalogue lists it (exactly these keys; `example` is always a string). */
export interface ParamSpec {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly required: boolean;
  readonly example: string;
}

export const TEMPLATE_KEYS = [
  'lead_intake_call',
  'post_call_chatapp_followup',
  'post_call_webhook_forward',
  'midcall_lookup_table',
  'delayed_followup_call',
  'crm_note_on_call',
  'conversation_webhook_forward',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

/**
 * Resources of the account a template's params name, checked on apply, update and restore in this
 * order (the connection, then the data table and its key column, then the chat-app sender and template).
 */
export const TEMPLATE_RESOURCES = ['connection', 'data_table', 'chatapp_template'] as const;
export type TemplateResource = (typeof TEMPLATE_RESOURCES)[number];

/** What a template's test input is made from besides its params. */
export interface SampleSources {
  readonly assistantId: number | null;
  /** The key column value of the table's lowest-id row (a `data_table` template); null for an empty table. */
  readonly firstKeyValue: JsonValue;
}

/** The mid-call tool a template bound to an assistant gets (its endpoint is the automation's webhook URL). */
export interface LinkedToolFields {
  readonly name: string;
  readonly description: string;
  readonly inputField: string;
  readonly keyColumn: string;
}

/** Param values after coercion (ids and numbers as numbers, booleans as booleans). */
export type TemplateParams = { readonly [key: string]: JsonValue | undefined };

export interface AutomationTemplate {
  readonly key: TemplateKey;
  readonly name: string;
  readonly description: string;
  readonly trigger: AutomationTrigger;
  readonly requiresAssistant: boolean;
  readonly sideEffects: boolean;
  /** The binding made without an assistant-specific variant (`midcall_lookup_table` becomes `tool` with an assistant). */
  readonly bindingType: 'webhook' | 'assistant_event';
  readonly needsConnection: 'http_api' | null;
  /** The account resources its params name (`connection` exactly when `needsConnection` says one). */
  readonly resources: readonly TemplateResource[];
  readonly params: readonly ParamSpec[];
  /** Run-detail step names, the trigger first. */
  readonly steps: readonly string[];
  /**
   * Given an assistant, the binding is a mid-call tool of it instead (`midcall_lookup_table`): the
   * tool as the version's params and its data table's name make it.
   */
  readonly tool?: (params: TemplateParams, tableName: string) => LinkedToolFields;
  /** The definition a version of this template holds, from its (validated, coerced) params. */
  definition(params: TemplateParams, assistantId: number | null): AutomationDefinition;
  /**
   * The test input (the "Sample test input" of each template), before the caller's `sample` is
   * merged over it; an assistant-event template given none tests with its event's sample.
   */
  sampleInput(params: TemplateParams, sources: SampleSources): JsonObject;
}

const spec = (key: string, label: string, description: string, required: boolean, example: string): ParamSpec => ({
  key,
  label,
  description,
  required,
  example,
});

const testPhone = (description: string) =>
  spec('test_phone_number', 'Test phone number', description, true, '+14155551234');
const CALL_ENDED = { kind: 'trigger.assistant_event', event: 'call.ended' } as const;
const CONVERSATION_ENDED = { kind: 'trigger.assistant_event', event: 'conversation.ended' } as const;
export const DEFAULT_NOTE_TEMPLATE = 'Call {{call.id}} ({{call.status}}): {{call.extracted_variables.summary}}';

const text = (params: TemplateParams, key: string, fallback: string): string => {
  const v = params[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback;
};
const id = (params: TemplateParams, key: string): number => params[key] as number;
const assistant = (assistantId: number | null): number => assistantId as number;

/** `variable_fields`: comma-separated names, blanks dropped. */
export const variableFieldNames = (value: JsonValue | undefined): string[] =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '')
    : [];

/** `lookup_` + the table name lower-cased, runs outside `[a-z0-9]` as one `_`, cut to 64. */
function defaultToolName(tableName: string): string {
  const snake = tableName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `lookup_${snake}`.slice(0, 64);
}

type TemplateSpec = Omit<AutomationTemplate, 'steps' | 'sampleInput' | 'resources'> & {
  readonly stepNames: readonly string[];
  readonly resources?: readonly TemplateResource[];
} & (
    | { readonly trigger: EventTrigger; readonly sampleInput?: AutomationTemplate['sampleInput'] }
    | {
        readonly trigger: Extract<AutomationTrigger, { kind: 'trigger.webhook' }>;
        readonly sampleInput: AutomationTemplate['sampleInput'];
      }
  );

type EventTrigger = Extract<AutomationTrigger, { kind: 'trigger.assistant_event' }>;

const template = (t: TemplateSpec): AutomationTemplate => {
  const { stepNames, ...rest } = t;
  // TemplateSpec makes a webhook template declare its sample, so a missing one is an event template's.
  const event = (t.trigger as EventTrigger).event;
  const sampleInput =
    t.sampleInput ??
    ((_params: TemplateParams, sources: SampleSources) => eventSample(event, sources.assistantId as number));
  return { ...rest, resources: t.resources ?? [], sampleInput, steps: [triggerStepName(t.trigger), ...stepNames] };
};

/** The templates, in catalogue order. */
export const TEMPLATE_CATALOGUE: readonly AutomationTemplate[] = [
  template({
    key: 'lead_intake_call',
    name: 'Call new leads',
    description: 'Each lead posted to the webhook URL is called by the assistant right away.',
    trigger: { kind: 'trigger.webhook', mode: ASYNC_WEBHOOK_MODE },
    requiresAssistant: true,
    sideEffects: true,
    bindingType: 'webhook',
    needsConnection: null,
    sampleInput: (params) =>
      deepMerge(
        { name: 'Test Lead', email: 'lead@example.com', interest: 'demo' },
        atPath(text(params, 'phone_field', 'phone'), params.test_phone_number as string),
      ),
    params: [
      testPhone('Number the test run really calls; use a phone you control.'),
      spec(
        'phone_field',
        'Phone field',
        "Field of the incoming JSON with the lead's phone number (dot path). Default `phone`.",
        false,
        'phone',
      ),
      spec(
        'name_field',
        'Name field',
        "Field with the lead's name, passed to the call as `customer_name`. Default `name`.",
        false,
        'name',
      ),
      spec(
        'variable_fields',
        'Extra variables',
        'Comma-separated fields passed to the call as variables of the same name.',
        false,
        'email,interest',
      ),
    ],
    stepNames: ['validate_phone', 'place_call'],
    definition: (params, assistantId) => {
      const optional: Record<string, string> = { customer_name: `{{trigger.${text(params, 'name_field', 'name')}}}` };
      for (const field of variableFieldNames(params.variable_fields)) optional[field] = `{{trigger.${field}}}`;
      return {
        trigger: { kind: 'trigger.webhook', mode: ASYNC_WEBHOOK_MODE },
        steps: [
          {
            name: 'validate_phone',
            kind: 'validate.phone',
            config: { field: `{{trigger.${text(params, 'phone_field', 'phone')}}}` },
          },
          {
            name: 'place_call',
            kind: 'voice.make_call',
            config: {
              assistant_id: assistant(assistantId),
              to: '{{steps.validate_phone.output.phone}}',
              optional_variables: optional,
            },
          },
        ],
      };
    },
  }),
  template({
    key: 'post_call_chatapp_followup',
    name: 'Chat-app follow-up after a completed call',
    description: 'After each completed call of the assistant, sends an approved template to the caller.',
    trigger: CALL_ENDED,
    requiresAssistant: true,
    sideEffects: true,
    bindingType: 'assistant_event',
    needsConnection: null,
    resources: ['chatapp_template'],
    sampleInput: (params, sources) =>
      eventSample('call.ended', sources.assistantId as number, {
        call: { customer_phone: params.test_phone_number as string },
      }),
    params: [
      spec('sender_id', 'Sender', 'Chat-app sender that sends the follow-up.', true, '12'),
      spec('template_id', 'Template', 'Approved template of that sender.', true, '34'),
      spec(
        'variables_map',
        'Template variables',
        'JSON object from template variable (name or position) to a value or `{{call.…}}` expression.',
        false,
        '{"1":"{{call.extracted_variables.customer_name}}"}',
      ),
      testPhone('Number that receives the real test message.'),
    ],
    stepNames: ['check_completed', 'send_template'],
    definition: (params) => {
      const variables = isJsonObject(params.variables_map) ? { variables: params.variables_map } : {};
      return {
        trigger: CALL_ENDED,
        steps: [
          {
            name: 'check_completed',
            kind: 'condition',
            config: { field: '{{call.status}}', op: 'eq', value: 'completed' },
          },
          {
            name: 'send_template',
            kind: 'chatapp.send_template',
            config: {
              sender_id: id(params, 'sender_id'),
              template_id: id(params, 'template_id'),
              to: '{{call.customer_phone}}',
              ...variables,
            },
          },
        ],
      };
    },
  }),
  template({
    key: 'post_call_webhook_forward',
    name: 'Forward call results to a URL',
    description: 'After each call of the assistant, posts the call record as signed JSON to your URL.',
    trigger: CALL_ENDED,
    requiresAssistant: true,
    sideEffects: false,
    bindingType: 'assistant_event',
    needsConnection: null,
    params: [
      spec(
        'url',
        'Target URL',
        'Address that receives every finished call as JSON.',
        true,
        'https://hooks.example.com/calls',
      ),
      spec('include_transcript', 'Include transcript', '`true` or `false`; default `true`.', false, 'true'),
    ],
    stepNames: ['forward_webhook'],
    definition: (params) => ({
      trigger: CALL_ENDED,
      steps: [
        {
          name: 'forward_webhook',
          kind: 'http.request',
          config: {
            method: 'POST',
            url: params.url as string,
            body: '{{trigger.call}}',
            ...(params.include_transcript === false ? { omit_fields: ['transcript'] } : {}),
          },
        },
      ],
    }),
  }),
  template({
    key: 'midcall_lookup_table',
    name: 'Mid-call lookup in a data table',
    description:
      'Answers a request (or an assistant tool call during a call) with the data-table row whose key column matches the given value.',
    trigger: { kind: 'trigger.webhook', mode: 'sync' },
    requiresAssistant: false,
    sideEffects: false,
    bindingType: 'webhook',
    tool: (params, tableName) => {
      const keyColumn = params.key_column as string;
      return {
        name: typeof params.tool_name === 'string' ? params.tool_name : defaultToolName(tableName),
        description:
          typeof params.tool_description === 'string'
            ? params.tool_description
            : `Look up a record in ${tableName} by ${keyColumn}.`,
        inputField: typeof params.input_field === 'string' ? params.input_field : 'key',
        keyColumn,
      };
    },
    needsConnection: null,
    resources: ['data_table'],
    sampleInput: (params, sources) => ({ [text(params, 'input_field', 'key')]: sources.firstKeyValue ?? '' }),
    params: [
      spec('table_id', 'Data table', 'Data table to search.', true, '7'),
      spec('key_column', 'Key column', 'Column compared with the lookup value.', true, 'order_number'),
      spec('input_field', 'Input field', 'Request field that holds the lookup value. Default `key`.', false, 'key'),
      spec(
        'tool_name',
        'Tool name',
        'Name of the mid-call tool created when an assistant is given. Default `lookup_<table name, snake case>`.',
        false,
        'lookup_orders',
      ),
      spec(
        'tool_description',
        'Tool description',
        'Description of that tool. Default `Look up a record in <table name> by <key_column>.`',
        false,
        'Find an order by its number',
      ),
    ],
    stepNames: ['lookup_row', 'respond'],
    definition: (params) => ({
      trigger: { kind: 'trigger.webhook', mode: 'sync' },
      steps: [
        {
          name: 'lookup_row',
          kind: 'table.lookup',
          config: {
            table_id: id(params, 'table_id'),
            key_column: params.key_column as string,
            value: `{{trigger.${text(params, 'input_field', 'key')}}}`,
          },
        },
        { name: 'respond', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
      ],
    }),
  }),
  template({
    key: 'delayed_followup_call',
    name: 'Call back later when a call was not answered',
    description:
      'When a call of the assistant was not answered, was busy or failed, the assistant calls the number again after a delay.',
    trigger: CALL_ENDED,
    requiresAssistant: true,
    sideEffects: true,
    bindingType: 'assistant_event',
    needsConnection: null,
    sampleInput: (params, sources) =>
      eventSample('call.ended', sources.assistantId as number, {
        call: { status: 'no-answer', duration: 0, customer_phone: params.test_phone_number as string },
      }),
    params: [
      spec('delay_minutes', 'Delay (minutes)', 'Minutes to wait before calling back.', true, '60'),
      testPhone('Number the test run calls back after the delay.'),
      spec(
        'max_attempts',
        'Attempts',
        'Call-backs at most for one original call; a call-back that is again unanswered calls back only while fewer have been made.',
        false,
        '1',
      ),
    ],
    stepNames: ['check_unanswered', 'wait', 'place_call'],
    definition: (params, assistantId) => ({
      trigger: { ...CALL_ENDED, max_attempts: typeof params.max_attempts === 'number' ? params.max_attempts : 1 },
      steps: [
        {
          name: 'check_unanswered',
          kind: 'condition',
          config: { field: '{{call.status}}', op: 'in', value: ['no-answer', 'busy', 'failed'] },
        },
        { name: 'wait', kind: 'delay', config: { minutes: params.delay_minutes as number } },
        {
          name: 'place_call',
          kind: 'voice.make_call',
          config: {
            assistant_id: assistant(assistantId),
            to: '{{call.customer_phone}}',
            variables: '{{call.input_variables}}',
          },
        },
      ],
    }),
  }),
  template({
    key: 'crm_note_on_call',
    name: 'Write a CRM note for every call',
    description: "After each call of the assistant, posts a note to your CRM's HTTP API.",
    trigger: CALL_ENDED,
    requiresAssistant: true,
    sideEffects: false,
    bindingType: 'assistant_event',
    needsConnection: 'http_api',
    resources: ['connection'],
    params: [
      spec('connection_id', 'CRM connection', 'HTTP API connection that receives the note.', true, '3'),
      spec('note_template', 'Note text', 'Note text; `{{call.…}}` expressions allowed.', false, DEFAULT_NOTE_TEMPLATE),
    ],
    stepNames: ['push_note'],
    definition: (params) => {
      const note: JsonObject = {
        phone: '{{call.customer_phone}}',
        text: text(params, 'note_template', DEFAULT_NOTE_TEMPLATE),
        call_id: '{{call.id}}',
        assistant_id: '{{trigger.assistant_id}}',
        occurred_at: '{{call.finished_at}}',
      };
      return {
        trigger: CALL_ENDED,
        steps: [
          { name: 'push_note', kind: 'crm.push_note', config: { connection_id: id(params, 'connection_id'), note } },
        ],
      };
    },
  }),
  template({
    key: 'conversation_webhook_forward',
    name: 'Forward ended chat conversations to a URL',
    description:
      'When a chat-app conversation of the assistant ends, posts the conversation (as the conversation-ended webhook carries it) as signed JSON to your URL.',
    trigger: CONVERSATION_ENDED,
    requiresAssistant: true,
    sideEffects: false,
    bindingType: 'assistant_event',
    needsConnection: null,
    params: [
      spec(
        'url',
        'Target URL',
        'Address that receives every ended conversation as JSON.',
        true,
        'https://hooks.example.com/conversations',
      ),
      spec('include_transcript', 'Include transcript', '`true` or `false`; default `true`.', false, 'true'),
    ],
    stepNames: ['forward_webhook'],
    definition: (params) => ({
      trigger: CONVERSATION_ENDED,
      steps: [
        {
          name: 'forward_webhook',
          kind: 'http.request',
          config: {
            method: 'POST',
            url: params.url as string,
            body: '{{trigger.conversation}}',
            ...(params.include_transcript === false ? { omit_fields: ['transcript', 'formatted_transcript'] } : {}),
          },
        },
      ],
    }),
  }),
];

export const findTemplate = (key: string): AutomationTemplate | null =>
  TEMPLATE_CATALOGUE.find((t) => t.key === key) ?? null;
