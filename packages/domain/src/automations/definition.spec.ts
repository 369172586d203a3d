import { ok } from '../common/result';
import { DefinitionProblem, parseDefinition } from './definition';

/** The documented example definition. */
const chatapp = {
  trigger: { kind: 'trigger.assistant_event', event: 'call.ended' },
  steps: [
    { name: 'check_completed', kind: 'condition', config: { field: '{{call.status}}', op: 'eq', value: 'completed' } },
    {
      name: 'send_template',
      kind: 'chatapp.send_template',
      config: { sender_id: 12, template_id: 34, to: '{{call.customer_phone}}' },
    },
  ],
};

const lookup = {
  trigger: { kind: 'trigger.webhook', mode: 'sync' },
  steps: [
    {
      name: 'lookup_row',
      kind: 'table.lookup',
      config: { table_id: 7, key_column: 'order_number', value: '{{trigger.key}}' },
    },
    { name: 'respond', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
  ],
};

const webhookWith = (...steps: unknown[]) => ({ trigger: { kind: 'trigger.webhook', mode: 'async' }, steps });
const step = (kind: string, config: unknown, name = 'a_step') => ({ name, kind, config });
const problems = (raw: unknown): DefinitionProblem[] => {
  const r = parseDefinition(raw);
  return r.ok ? [] : r.error;
};

describe('definition structure', () => {
  it('reads the contract example', () => {
    expect(parseDefinition(chatapp)).toEqual(ok(chatapp));
  });

  it('reads a sync webhook definition with its respond step', () => {
    expect(parseDefinition(lookup).ok).toBe(true);
  });

  it.each([null, [], 'definition', 3])('a document that is not an object: %p', (raw) => {
    expect(problems(raw)).toEqual([{ code: 'invalid_value', at: '' }]);
  });

  it.each([
    [{ steps: chatapp.steps }, { code: 'invalid_value', at: 'trigger' }],
    [
      { trigger: { kind: 'trigger.cron' }, steps: chatapp.steps },
      { code: 'unknown_trigger_kind', at: 'trigger.kind' },
    ],
    [
      { trigger: { kind: 'condition' }, steps: chatapp.steps },
      { code: 'unknown_trigger_kind', at: 'trigger.kind' },
    ],
    [
      { trigger: { kind: 'trigger.webhook', mode: 'later' }, steps: chatapp.steps },
      { code: 'invalid_value', at: 'trigger.mode' },
    ],
    [
      { trigger: { kind: 'trigger.webhook' }, steps: chatapp.steps },
      { code: 'invalid_value', at: 'trigger.mode' },
    ],
    [
      { trigger: { kind: 'trigger.assistant_event', event: 'call.started' }, steps: chatapp.steps },
      { code: 'invalid_value', at: 'trigger.event' },
    ],
  ])('trigger problem %#', (raw, problem) => {
    expect(problems(raw)).toEqual([problem]);
  });

  it('accepts conversation.ended as an assistant event', () => {
    expect(
      parseDefinition({ ...chatapp, trigger: { kind: 'trigger.assistant_event', event: 'conversation.ended' } }).ok,
    ).toBe(true);
  });

  it.each([
    [{ trigger: chatapp.trigger }, { code: 'invalid_value', at: 'steps' }],
    [
      { trigger: chatapp.trigger, steps: {} },
      { code: 'invalid_value', at: 'steps' },
    ],
    [
      { trigger: chatapp.trigger, steps: [] },
      { code: 'no_steps', at: 'steps' },
    ],
    [
      webhookWith(...Array.from({ length: 51 }, (_, i) => step('delay', { minutes: 1 }, `s${i}`))),
      { code: 'too_many_steps', at: 'steps' },
    ],
  ])('steps problem %#', (raw, problem) => {
    expect(problems(raw)).toEqual([problem]);
  });

  it('allows 50 steps', () => {
    expect(
      parseDefinition(webhookWith(...Array.from({ length: 50 }, (_, i) => step('delay', { minutes: 1 }, `s${i}`)))).ok,
    ).toBe(true);
  });

  it.each(['', 'Send', '1st', 'send-template', 'a'.repeat(65), 7, undefined])('step name %p is refused', (name) => {
    expect(problems(webhookWith({ name, kind: 'delay', config: { minutes: 5 } }))).toEqual([
      { code: 'invalid_step_name', at: 'steps.0.name' },
    ]);
  });

  it.each(['trigger.webhook', 'trigger.assistant_event', 'script', 'http', undefined])(
    'step kind %p is refused',
    (kind) => {
      expect(problems(webhookWith(step(kind as string, {})))).toEqual([
        { code: 'unknown_step_kind', at: 'steps.0.kind' },
      ]);
    },
  );

  it.each([null, [], 'x', undefined])('step config %p is refused', (config) => {
    expect(problems(webhookWith(step('delay', config)))).toEqual([{ code: 'invalid_value', at: 'steps.0.config' }]);
  });

  it.each([7, 'x'])('a step that is not an object (%p) is refused', (raw) => {
    expect(problems(webhookWith(raw))).toEqual([{ code: 'invalid_value', at: 'steps.0' }]);
  });

  it('step names are unique, also against the trigger step name', () => {
    expect(problems(webhookWith(step('delay', { minutes: 1 }, 'wait'), step('delay', { minutes: 1 }, 'wait')))).toEqual(
      [{ code: 'duplicate_step_name', at: 'steps.1.name' }],
    );
    expect(problems(webhookWith(step('delay', { minutes: 1 }, 'webhook_trigger')))).toEqual([
      { code: 'duplicate_step_name', at: 'steps.0.name' },
    ]);
    expect(problems({ ...chatapp, steps: [step('delay', { minutes: 1 }, 'call_ended_trigger')] })).toEqual([
      { code: 'duplicate_step_name', at: 'steps.0.name' },
    ]);
  });

  it('one condition step at most', () => {
    const cond = (name: string) => step('condition', { field: '{{trigger.a}}', op: 'eq', value: 1 }, name);
    expect(problems(webhookWith(cond('c1'), cond('c2')))).toEqual([{ code: 'too_many_conditions', at: 'steps' }]);
  });

  it('a respond step only under a sync webhook, at most one, and a sync webhook needs one', () => {
    const respond = (name: string) => step('respond', { body: {} }, name);
    expect(problems(webhookWith(respond('r')))).toEqual([{ code: 'respond_without_sync_webhook', at: 'steps' }]);
    expect(problems({ ...chatapp, steps: [respond('r')] })).toEqual([
      { code: 'respond_without_sync_webhook', at: 'steps' },
    ]);
    expect(problems({ ...lookup, steps: [...lookup.steps, respond('again')] })).toEqual([
      { code: 'too_many_responds', at: 'steps' },
    ]);
    expect(problems({ ...lookup, steps: [lookup.steps[0]] })).toEqual([
      { code: 'sync_webhook_without_respond', at: 'steps' },
    ]);
  });

  it('expressions must be paths of the grammar', () => {
    expect(
      problems(
        webhookWith(
          step('respond', {}, 'r'),
          step('http.request', { method: 'POST', url: 'https://x.example/{{input.a}}' }),
        ),
      ).map((p) => p.code),
    ).toContain('invalid_expression');
    expect(
      problems(
        webhookWith(
          step('http.request', { method: 'POST', url: 'https://x.example', body: { a: ['{{ trigger.a + 1 }}'] } }),
        ),
      ),
    ).toEqual([{ code: 'invalid_expression', at: 'steps.0.config' }]);
  });

  it('a step may only read outputs of the steps before it', () => {
    const reader = (path: string) =>
      step('http.request', { method: 'POST', url: 'https://x.example', body: `{{${path}}}` }, 'post');
    const first = step('validate.phone', { field: '{{trigger.phone}}' }, 'check');
    expect(parseDefinition(webhookWith(first, reader('steps.check.output.phone'))).ok).toBe(true);
    expect(problems(webhookWith(reader('steps.check.output.phone'), first))).toEqual([
      { code: 'unknown_step_reference', at: 'steps.0.config' },
    ]);
    expect(problems(webhookWith(reader('steps.post.output')))).toEqual([
      { code: 'unknown_step_reference', at: 'steps.0.config' },
    ]);
    expect(problems(webhookWith(reader('steps.webhook_trigger.output')))).toEqual([
      { code: 'unknown_step_reference', at: 'steps.0.config' },
    ]);
  });

  it('reports every problem, in document order', () => {
    expect(
      problems({ trigger: { kind: 'x' }, steps: [step('delay', { minutes: 0 }, 'Bad'), step('nope', {})] }),
    ).toEqual([
      { code: 'unknown_trigger_kind', at: 'trigger.kind' },
      { code: 'invalid_step_name', at: 'steps.0.name' },
      { code: 'invalid_value', at: 'steps.0.config.minutes' },
      { code: 'unknown_step_kind', at: 'steps.1.kind' },
    ]);
  });
});

describe('step configuration per kind', () => {
  type Row = [string, Record<string, unknown>, string[]];
  const rows: Row[] = [
    ['validate.phone', { field: '{{trigger.phone}}' }, []],
    ['validate.phone', { field: ' {{trigger.phone}} ' }, []],
    ['validate.phone', { field: '+15555550100' }, ['field']],
    ['validate.phone', { field: 'tel {{trigger.phone}}' }, ['field']],
    ['validate.phone', {}, ['field']],
    ['condition', { field: '{{call.status}}', op: 'eq', value: 'completed' }, []],
    ['condition', { field: '{{call.status}}', op: 'eq', value: null }, []],
    ['condition', { field: '{{call.status}}', op: 'in', value: ['busy', 'failed'] }, []],
    ['condition', { field: '{{call.status}}', op: 'in', value: 'busy' }, ['value']],
    ['condition', { field: '{{call.status}}', op: 'eq' }, ['value']],
    ['condition', { field: '{{call.status}}', op: 'gt', value: 1 }, ['op']],
    ['condition', { field: 'completed', op: 'eq', value: 'completed' }, ['field']],
    [
      'http.request',
      { method: 'POST', url: 'https://hooks.example.com/calls', body: '{{trigger.call}}', omit_fields: ['transcript'] },
      [],
    ],
    ['http.request', { method: 'post', url: 'https://x.example' }, ['method']],
    ['http.request', { method: 'GET', url: '  ' }, ['url']],
    ['http.request', { method: 'GET', url: 'https://x.example', omit_fields: 'transcript' }, ['omit_fields']],
    ['http.request', { method: 'GET', url: 'https://x.example', omit_fields: [1] }, ['omit_fields']],
    [
      'chatapp.send_template',
      { sender_id: 12, template_id: 34, to: '{{call.customer_phone}}', variables: { '1': '{{call.id}}' } },
      [],
    ],
    ['chatapp.send_template', { sender_id: '12', template_id: 0, to: '' }, ['sender_id', 'template_id', 'to']],
    [
      'chatapp.send_template',
      { sender_id: 1.5, template_id: 34, to: 'x', variables: ['a'] },
      ['sender_id', 'variables'],
    ],
    [
      'voice.make_call',
      { assistant_id: 101, to: '{{call.customer_phone}}', variables: '{{call.input_variables}}' },
      [],
    ],
    [
      'voice.make_call',
      { assistant_id: 101, to: '{{steps.v.output.phone}}', optional_variables: { customer_name: '{{trigger.name}}' } },
      [],
    ],
    ['voice.make_call', { assistant_id: 101, to: 'x', variables: 'plain text' }, ['variables']],
    ['voice.make_call', { assistant_id: 101, to: 'x', optional_variables: { a: 'text' } }, ['optional_variables']],
    ['voice.make_call', { to: 'x' }, ['assistant_id']],
    ['delay', { minutes: 1 }, []],
    ['delay', { minutes: 10_080 }, []],
    ['delay', { minutes: 0 }, ['minutes']],
    ['delay', { minutes: 10_081 }, ['minutes']],
    ['delay', { minutes: 1.5 }, ['minutes']],
    ['delay', { minutes: '60' }, ['minutes']],
    ['table.lookup', { table_id: 7, key_column: 'order_number', value: '{{trigger.key}}' }, []],
    ['table.lookup', { table_id: 7, key_column: '', value: 5 }, ['key_column', 'value']],
    ['crm.push_note', { connection_id: 3, note: { text: 'Call {{call.id}}' } }, []],
    ['crm.push_note', { connection_id: 3, note: 'text' }, ['note']],
    ['crm.push_note', { note: {} }, ['connection_id']],
  ];
  it.each(rows)('%s %j → bad %j', (kind, config, bad) => {
    const v = problems(webhookWith(step('validate.phone', { field: '{{trigger.v}}' }, 'v'), step(kind, config)));
    expect(v).toEqual(bad.map((key) => ({ code: 'invalid_value', at: `steps.1.config.${key}` })));
  });

  it('respond needs a body (any JSON, null included)', () => {
    expect(parseDefinition({ ...lookup, steps: [step('respond', { body: null }, 'r')] }).ok).toBe(true);
    expect(problems({ ...lookup, steps: [step('respond', {}, 'r')] })).toEqual([
      { code: 'invalid_value', at: 'steps.0.config.body' },
      { code: 'sync_webhook_without_respond', at: 'steps' },
    ]);
  });
});
