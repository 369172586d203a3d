import { err, ok } from '../common/result';
import { asText, evaluateExpressions, ExpressionContext, expressionsIn, parseExpressionPath } from './expressions';

const context: ExpressionContext = {
  trigger: {
    phone: '+15555550100',
    count: 3,
    flag: false,
    nothing: null,
    tags: ['a', 'b'],
    call: { id: 7, status: 'completed', extracted_variables: { summary: 'Wants a demo.' } },
  },
  steps: { validate_phone: { output: { phone: '+15555550100' } }, lookup_row: { output: { found: false } } },
};

describe('expression paths', () => {
  it.each([
    ['trigger.phone', { root: { kind: 'trigger' }, segments: ['phone'] }],
    ['trigger', { root: { kind: 'trigger' }, segments: [] }],
    ['call', { root: { kind: 'trigger' }, segments: ['call'] }],
    ['call.status', { root: { kind: 'trigger' }, segments: ['call', 'status'] }],
    ['steps.validate_phone.output.phone', { root: { kind: 'step', step: 'validate_phone' }, segments: ['phone'] }],
    ['steps.lookup_row.output', { root: { kind: 'step', step: 'lookup_row' }, segments: [] }],
  ])('%s parses', (path, expected) => {
    expect(parseExpressionPath(path)).toEqual(ok(expected));
  });

  it.each([
    'input.phone',
    'steps.x.phone',
    'steps.x',
    'trigger..phone',
    'trigger.a b',
    'trigger.a()',
    '',
    'this.constructor',
    'Trigger.x',
  ])('%s is not a path', (path) => {
    expect(parseExpressionPath(path)).toEqual(err({ code: 'invalid_expression', path }));
  });

  it('lists the paths written in a configuration value, in document order', () => {
    expect(expressionsIn({ a: '{{trigger.x}} and {{ call.y }}', b: ['{{steps.s.output.z}}', 4], c: null })).toEqual([
      'trigger.x',
      'call.y',
      'steps.s.output.z',
    ]);
  });
});

describe('expression evaluation', () => {
  it.each([
    ['{{trigger.count}}', 3],
    ['{{trigger.flag}}', false],
    ['{{trigger.nothing}}', null],
    ['{{trigger.tags}}', ['a', 'b']],
    ['{{ trigger.call.extracted_variables }}', { summary: 'Wants a demo.' }],
    ['{{trigger.tags.1}}', 'b'],
    ['{{call.id}}', 7],
    ['{{steps.validate_phone.output.phone}}', '+15555550100'],
    ['{{steps.lookup_row.output}}', { found: false }],
  ])('a lone expression %s keeps its JSON type', (expression, expected) => {
    expect(evaluateExpressions(expression, context)).toEqual(ok(expected));
  });

  it.each([
    ['Call {{call.id}} ({{call.status}}): {{call.extracted_variables.summary}}', 'Call 7 (completed): Wants a demo.'],
    ['n={{trigger.count}} f={{trigger.flag}}', 'n=3 f=false'],
    ['[{{trigger.nothing}}]', '[]'],
    ['tags {{trigger.tags}}', 'tags ["a","b"]'],
    [' {{trigger.count}}', ' 3'],
    ['no expressions', 'no expressions'],
  ])('expressions inside text are inserted as text: %s', (text, expected) => {
    expect(evaluateExpressions(text, context)).toEqual(ok(expected));
  });

  it('evaluates objects and arrays deeply, never their keys', () => {
    expect(
      evaluateExpressions({ '{{trigger.count}}': ['{{call.status}}', 1, true], to: '{{trigger.phone}}' }, context),
    ).toEqual(ok({ '{{trigger.count}}': ['completed', 1, true], to: '+15555550100' }));
  });

  it('an inserted value is not evaluated again', () => {
    const ctx: ExpressionContext = { trigger: { a: '{{trigger.b}}', b: 'secret' }, steps: {} };
    expect(evaluateExpressions('x {{trigger.a}}', ctx)).toEqual(ok('x {{trigger.b}}'));
    expect(evaluateExpressions('{{trigger.a}}', ctx)).toEqual(ok('{{trigger.b}}'));
  });

  it.each([
    ['{{trigger.email}}', 'trigger.email'],
    ['Hi {{trigger.name}} at {{trigger.email}}', 'trigger.name'],
    ['{{call.lead.name}}', 'call.lead.name'],
    ['{{trigger.tags.2}}', 'trigger.tags.2'],
    ['{{trigger.phone.length}}', 'trigger.phone.length'],
    ['{{steps.other.output.x}}', 'steps.other.output.x'],
    ['{{steps.lookup_row.output.row}}', 'steps.lookup_row.output.row'],
    ['{{input.x}}', 'input.x'],
  ])('a path that does not exist is a wiring_error naming it: %s', (expression, path) => {
    expect(evaluateExpressions(expression, context)).toEqual(err({ code: 'wiring_error', path }));
  });

  it('reports the first missing path of a document', () => {
    expect(evaluateExpressions({ a: '{{trigger.phone}}', b: ['{{trigger.x}}'], c: '{{trigger.y}}' }, context)).toEqual(
      err({ code: 'wiring_error', path: 'trigger.x' }),
    );
  });

  it.each([
    'trigger.__proto__',
    'trigger.constructor',
    'trigger.call.constructor.name',
    'trigger.toString',
    'trigger.hasOwnProperty',
    'trigger.tags.length',
    'trigger.tags.map',
    'trigger.prototype',
    'steps.constructor.output',
    'steps.__proto__.output.x',
  ])('nothing but own JSON data resolves: %s', (path) => {
    expect(evaluateExpressions(`{{${path}}}`, context)).toEqual(err({ code: 'wiring_error', path }));
    expect(evaluateExpressions(`x {{${path}}}`, context)).toEqual(err({ code: 'wiring_error', path }));
  });

  it('a __proto__ key of the data itself does not resolve either, and copies keep it as a plain key', () => {
    const trigger = JSON.parse('{"__proto__":{"polluted":true},"constructor":1}');
    expect(evaluateExpressions('{{trigger.__proto__}}', { trigger, steps: {} })).toEqual(
      err({ code: 'wiring_error', path: 'trigger.__proto__' }),
    );
    expect(evaluateExpressions('{{trigger.constructor}}', { trigger, steps: {} })).toEqual(
      err({ code: 'wiring_error', path: 'trigger.constructor' }),
    );
    const copy = evaluateExpressions(trigger, { trigger: {}, steps: {} });
    expect(copy.ok && Object.getPrototypeOf(copy.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['text', 'text'],
    [null, ''],
    [12.5, '12.5'],
    [true, 'true'],
    [{ a: 1 }, '{"a":1}'],
  ] as const)('asText(%p) = %p', (value, text) => {
    expect(asText(value)).toBe(text);
  });
});
