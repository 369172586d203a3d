import { ok, Result } from '../shared/result';
import { evaluateExpressions, ExpressionContext, WiringError } from './expressions';
import { jsonEqual } from './json';
import type { StepConfigs } from './step-kinds';

/**
 * The `condition` step: `eq` is true when the field equals the value, `in` when it
 * equals one item of the value list. Equality is JSON equality without coercion (`"1"` is not `1`).
 * A false result skips the later steps (see `applyStepResult`); the run still succeeds.
 */
export function evaluateCondition(config: StepConfigs['condition'], context: ExpressionContext): Result<{ readonly result: boolean }, WiringError> {
  const field = evaluateExpressions(config.field, context);
  if (!field.ok) return field;
  const value = evaluateExpressions(config.value, context);
  if (!value.ok) return value;
  const expected = value.value;
  const result = config.op === 'eq' ? jsonEqual(field.value, expected) : Array.isArray(expected) && expected.some((item) => jsonEqual(field.value, item));
  return ok({ result });
}
