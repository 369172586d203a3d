import { ok, err } from '../../common/result';
import { ExpressionContext } from '../expressions';
import { AutomationStep, STEP_KINDS, StepOf } from '../step-kinds';
import {
  PURE_STEP_KINDS,
  PureStepKind,
  pureStepRules,
  requestBody,
  resolveStepConfig,
  STEP_KIND_RULES,
  wiringFailure,
} from '.';

const executePure = <K extends PureStepKind>(step: StepOf<K>, ctx: ExpressionContext) =>
  pureStepRules(step.kind).execute(step.config, ctx);

const context: ExpressionContext = {
  trigger: {
    phone: ' +14155551234 ',
    bad_phone: '4155551234',
    number_phone: 14155551234,
    name: 'Ada',
    call: {
      id: 7,
      status: 'completed',
      customer_phone: '+15555550100',
      input_variables: { plan: 'pro' },
      transcript: 'AI: Hi',
    },
    nothing: null,
  },
  steps: { lookup_row: { output: { found: false } } },
};

describe('steps that need nothing outside the run', () => {
  it.each([
    [
      { name: 'c', kind: 'condition', config: { field: '{{call.status}}', op: 'eq', value: 'completed' } },
      { kind: 'ok', output: { result: true } },
    ],
    [
      { name: 'c', kind: 'condition', config: { field: '{{call.status}}', op: 'in', value: ['busy'] } },
      { kind: 'ok', output: { result: false } },
    ],
    [
      { name: 'c', kind: 'condition', config: { field: '{{call.ended}}', op: 'eq', value: 1 } },
      { kind: 'failed', reason: 'missing_path', detail: 'call.ended' },
    ],
    [
      { name: 'v', kind: 'validate.phone', config: { field: '{{trigger.phone}}' } },
      { kind: 'ok', output: { phone: '+14155551234' } },
    ],
    [
      { name: 'v', kind: 'validate.phone', config: { field: '{{trigger.bad_phone}}' } },
      { kind: 'failed', reason: 'invalid_phone', detail: '4155551234' },
    ],
    [
      { name: 'v', kind: 'validate.phone', config: { field: '{{trigger.number_phone}}' } },
      { kind: 'failed', reason: 'invalid_phone', detail: '14155551234' },
    ],
    [
      { name: 'v', kind: 'validate.phone', config: { field: '{{trigger.nothing}}' } },
      { kind: 'failed', reason: 'invalid_phone', detail: '' },
    ],
    [
      { name: 'v', kind: 'validate.phone', config: { field: '{{trigger.mobile}}' } },
      { kind: 'failed', reason: 'missing_path', detail: 'trigger.mobile' },
    ],
    [
      { name: 'r', kind: 'respond', config: { body: '{{steps.lookup_row.output}}' } },
      { kind: 'ok', output: { found: false } },
    ],
    [
      { name: 'r', kind: 'respond', config: { body: { name: '{{trigger.name}}', n: '{{call.id}}' } } },
      { kind: 'ok', output: { name: 'Ada', n: 7 } },
    ],
    [
      { name: 'r', kind: 'respond', config: { body: '{{steps.lookup_row.output.row}}' } },
      { kind: 'failed', reason: 'missing_path', detail: 'steps.lookup_row.output.row' },
    ],
    [{ name: 'w', kind: 'delay', config: { minutes: 5 } }, { kind: 'paused_at_delay' }],
  ] as [StepOf<PureStepKind>, unknown][])('%j → %j', (step, result) => {
    expect(executePure(step, context)).toEqual(result);
  });

  it.each([
    { name: 'h', kind: 'http.request', config: { method: 'POST', url: 'https://x.example' } },
    { name: 's', kind: 'chatapp.send_template', config: { sender_id: 1, template_id: 2, to: 'x' } },
    { name: 'p', kind: 'voice.make_call', config: { assistant_id: 1, to: 'x' } },
    { name: 'l', kind: 'table.lookup', config: { table_id: 1, key_column: 'k', value: 'v' } },
    { name: 'n', kind: 'crm.push_note', config: { connection_id: 1, note: {} } },
  ] as AutomationStep[])('$kind needs the outside world', (step) => {
    expect(PURE_STEP_KINDS).not.toContain(step.kind);
  });

  it('a wiring failure names the path', () => {
    expect(wiringFailure({ code: 'wiring_error', path: 'trigger.x' })).toEqual({
      kind: 'failed',
      reason: 'missing_path',
      detail: 'trigger.x',
    });
  });
});

describe('resolving a step configuration', () => {
  it('resolves every expression of the configuration', () => {
    const step: AutomationStep = {
      name: 'n',
      kind: 'crm.push_note',
      config: { connection_id: 3, note: { text: 'Call {{call.id}}', call_id: '{{call.id}}' } },
    };
    expect(resolveStepConfig(step, context)).toEqual(ok({ connection_id: 3, note: { text: 'Call 7', call_id: 7 } }));
  });

  it('fails on the first missing path', () => {
    const step: AutomationStep = {
      name: 's',
      kind: 'chatapp.send_template',
      config: { sender_id: 1, template_id: 2, to: '{{call.phone}}', variables: { '1': '{{call.x}}' } },
    };
    expect(resolveStepConfig(step, context)).toEqual(err({ code: 'wiring_error', path: 'call.phone' }));
  });

  it('a call: variables from an expression, optional variables only when present', () => {
    const step: AutomationStep = {
      name: 'p',
      kind: 'voice.make_call',
      config: {
        assistant_id: 1,
        to: '{{call.customer_phone}}',
        variables: '{{call.input_variables}}',
        optional_variables: { customer_name: '{{trigger.name}}', email: '{{trigger.email}}' },
      },
    };
    expect(resolveStepConfig(step, context)).toEqual(
      ok({ assistant_id: 1, to: '+15555550100', variables: { plan: 'pro', customer_name: 'Ada' } }),
    );
  });

  it('a call whose variables resolve to null has none; a missing required path still fails', () => {
    const base = { assistant_id: 1, to: '{{call.customer_phone}}' };
    expect(
      resolveStepConfig(
        { name: 'p', kind: 'voice.make_call', config: { ...base, variables: '{{trigger.nothing}}' } },
        context,
      ),
    ).toEqual(ok({ ...base, to: '+15555550100', variables: {} }));
    expect(
      resolveStepConfig(
        { name: 'p', kind: 'voice.make_call', config: { ...base, variables: '{{call.vars}}' } },
        context,
      ),
    ).toEqual(err({ code: 'wiring_error', path: 'call.vars' }));
  });

  it('an optional variable named __proto__ stays a variable', () => {
    const r = resolveStepConfig(
      {
        name: 'p',
        kind: 'voice.make_call',
        config: { assistant_id: 1, to: 'x', optional_variables: JSON.parse('{"__proto__":"{{trigger.name}}"}') },
      },
      context,
    );
    const variables = r.ok ? (r.value.variables as object) : {};
    expect(Object.getPrototypeOf(variables)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(variables, '__proto__')?.value).toBe('Ada');
  });
});

describe('one object per step kind', () => {
  it('every kind has its rules, in the order kinds are listed', () => {
    expect(Object.keys(STEP_KIND_RULES)).toEqual([...STEP_KINDS]);
    expect(PURE_STEP_KINDS).toEqual(['validate.phone', 'condition', 'delay', 'respond']);
  });
});

describe('request body', () => {
  it('drops omit_fields from an object body only', () => {
    expect(requestBody({ id: 1, transcript: 'x' }, ['transcript'])).toEqual({ id: 1 });
    expect(requestBody({ id: 1, transcript: 'x' })).toEqual({ id: 1, transcript: 'x' });
    expect(requestBody('text', ['transcript'])).toBe('text');
    expect(requestBody(undefined, ['transcript'])).toBeUndefined();
  });
});
