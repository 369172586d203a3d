import { ok, Result } from '../../common/result';
import { evaluateExpressions, ExpressionContext, WiringError } from '../expressions';
import { jsonEqual, JsonValue } from '../json';
import { oneOf, PureStepKindRules, requireLoneExpression, wiringFailure } from './step-kind';

export const CONDITION_OPERATORS = ['eq', 'in'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** `value` is a JSON value for `eq`, an array for `in`. */
export interface ConditionConfig {
  readonly field: string;
  readonly op: ConditionOperator;
  readonly value: JsonValue;
}

/**
 * `eq` is true when the field equals the value, `in` when it equals one item of the value list.
 * Equality is JSON equality without coercion (`"1"` is not `1`). A false result skips the later
 * steps (see `applyStepResult`); the run still succeeds.
 */
function evaluateCondition(
  config: ConditionConfig,
  context: ExpressionContext,
): Result<{ readonly result: boolean }, WiringError> {
  const field = evaluateExpressions(config.field, context);
  if (!field.ok) return field;
  const value = evaluateExpressions(config.value, context);
  if (!value.ok) return value;
  const expected = value.value;
  const result =
    config.op === 'eq'
      ? jsonEqual(field.value, expected)
      : Array.isArray(expected) && expected.some((item) => jsonEqual(field.value, item));
  return ok({ result });
}

export const CONDITION_STEP: PureStepKindRules<ConditionConfig> = {
  checkConfig: (c, bad) => {
    requireLoneExpression(c, 'field', bad);
    if (!oneOf(CONDITION_OPERATORS, c.op)) bad('op');
    if (!('value' in c) || (c.op === 'in' && !Array.isArray(c.value))) bad('value');
  },
  execute: (config, context) => {
    const r = evaluateCondition(config, context);
    return r.ok ? { kind: 'ok', output: r.value } : wiringFailure(r.error);
  },
};
