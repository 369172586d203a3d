import { E164_PATTERN } from '../assistants/built-in-tools';
import { ok, Result } from '../shared/result';
import { evaluateCondition } from './condition';
import { asText, evaluateExpressions, ExpressionContext, WiringError } from './expressions';
import { isJsonObject, JsonObject, JsonValue } from './json';
import type { StepResult } from './run';
import type { AutomationStep, StepConfigs } from './step-kinds';

/**
 * The pure part of executing a step: resolving its configuration against the run so far, and the
 * steps that need nothing from the outside world (condition, validate.phone, respond, delay).
 * Steps that do need it (HTTP, chat-app, calls, tables, CRM) get their resolved configuration here
 * and report back through `StepResult`.
 */

export const wiringFailure = (e: WiringError): StepResult => ({ kind: 'failed', reason: 'missing_path', detail: e.path });

/**
 * The step's configuration with every expression resolved. `optional_variables` of a call join
 * its `variables`, minus those whose path is missing; `variables` resolving to null counts as none.
 */
export function resolveStepConfig(step: AutomationStep, context: ExpressionContext): Result<JsonObject, WiringError> {
  if (step.kind !== 'voice.make_call') return evaluateExpressions(step.config as unknown as JsonObject, context) as Result<JsonObject, WiringError>;
  const { optional_variables: optional, ...required } = step.config;
  const resolved = evaluateExpressions(required as unknown as JsonObject, context);
  if (!resolved.ok) return resolved;
  const config = resolved.value as JsonObject;
  const variables: Record<string, JsonValue> = isJsonObject(config.variables) ? { ...config.variables } : {};
  for (const [name, expression] of Object.entries(optional ?? {})) {
    const value = evaluateExpressions(expression, context);
    // defineProperty: a variable named `__proto__` stays a variable.
    if (value.ok) Object.defineProperty(variables, name, { value: value.value, enumerable: true, writable: true, configurable: true });
  }
  return ok({ ...config, variables });
}

/** The step kinds whose execution needs nothing outside the run. */
export type PureStepKind = 'condition' | 'validate.phone' | 'respond' | 'delay';

/** How each step that needs nothing outside the run executes against the run so far. */
export const PURE_STEPS: { readonly [K in PureStepKind]: (config: StepConfigs[K], context: ExpressionContext) => StepResult } = {
  condition: (config, context) => {
    const r = evaluateCondition(config, context);
    return r.ok ? { kind: 'ok', output: r.value } : wiringFailure(r.error);
  },
  'validate.phone': (config, context) => validatePhone(config, context),
  respond: (config, context) => {
    const r = evaluateExpressions(config.body, context);
    return r.ok ? { kind: 'ok', output: r.value } : wiringFailure(r.error);
  },
  delay: () => ({ kind: 'paused_at_delay' }),
};

/** `validate.phone`: the field must exist (else `wiring_error`) and hold an E.164 number (else `step_error`). */
function validatePhone(config: StepConfigs['validate.phone'], context: ExpressionContext): StepResult {
  const r = evaluateExpressions(config.field, context);
  if (!r.ok) return wiringFailure(r.error);
  const phone = typeof r.value === 'string' ? r.value.trim() : null;
  if (phone === null || !E164_PATTERN.test(phone)) return { kind: 'failed', reason: 'invalid_phone', detail: asText(r.value) };
  return { kind: 'ok', output: { phone } };
}

/** The body an `http.request` sends: `omit_fields` are removed from an object body. */
export function requestBody(body: JsonValue | undefined, omitFields: readonly string[] = []): JsonValue | undefined {
  if (!isJsonObject(body) || omitFields.length === 0) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !omitFields.includes(key)));
}
