import { ExpressionContext } from '../expressions';
import { CONDITION_STEP } from './condition';

const evaluateCondition = CONDITION_STEP.execute;

const context: ExpressionContext = {
  trigger: { call: { status: 'no-answer', duration: 0, tags: ['vip'] }, expected: 'no-answer', count: '1' },
  steps: {},
};

describe('condition step', () => {
  it.each([
    ['eq', '{{call.status}}', 'no-answer', true],
    ['eq', '{{call.status}}', 'completed', false],
    ['eq', '{{call.status}}', 'No-Answer', false],
    ['eq', '{{call.duration}}', 0, true],
    ['eq', '{{call.duration}}', '0', false],
    ['eq', '{{trigger.count}}', 1, false],
    ['eq', '{{call.tags}}', ['vip'], true],
    ['eq', '{{call.status}}', '{{trigger.expected}}', true],
    ['in', '{{call.status}}', ['no-answer', 'busy', 'failed'], true],
    ['in', '{{call.status}}', ['completed'], false],
    ['in', '{{call.status}}', [], false],
    ['in', '{{call.duration}}', ['0'], false],
    ['in', '{{call.status}}', 'no-answer', false],
  ] as const)('%s: %s vs %p → %p', (op, field, value, result) => {
    expect(evaluateCondition({ field, op, value }, context)).toEqual({ kind: 'ok', output: { result } });
  });

  it('a missing field is a wiring_error', () => {
    expect(evaluateCondition({ field: '{{call.ended_reason}}', op: 'eq', value: 'x' }, context)).toEqual({
      kind: 'failed',
      reason: 'missing_path',
      detail: 'call.ended_reason',
    });
  });

  it('a missing path in the compared value is a wiring_error too', () => {
    expect(evaluateCondition({ field: '{{call.status}}', op: 'in', value: ['{{trigger.nope}}'] }, context)).toEqual({
      kind: 'failed',
      reason: 'missing_path',
      detail: 'trigger.nope',
    });
  });
});
