import { ok } from '../../common/result';
import { evaluateExpressions } from '../expressions';
import { isJsonObject, JsonObject, JsonValue } from '../json';
import { isLoneExpression, requireId, requireText, StepKindRules } from './step-kind';

/**
 * `variables`: an object, or a lone expression resolving to one. `optional_variables`: lone
 * expressions whose missing paths leave the variable out instead of failing the step.
 */
export interface MakeCallConfig {
  readonly assistant_id: number;
  readonly to: string;
  readonly variables?: JsonObject | string;
  readonly optional_variables?: { readonly [name: string]: string };
}

/** A call placed by an assistant; an assistant gone is a missing record. */
export const MAKE_CALL_STEP: StepKindRules<MakeCallConfig> = {
  checkConfig: (c, bad) => {
    requireId(c, 'assistant_id', bad);
    requireText(c, 'to', bad);
    if ('variables' in c && !isJsonObject(c.variables) && !isLoneExpression(c.variables)) bad('variables');
    if (
      'optional_variables' in c &&
      !(isJsonObject(c.optional_variables) && Object.values(c.optional_variables).every(isLoneExpression))
    ) {
      bad('optional_variables');
    }
  },
  /** `optional_variables` join `variables`, minus those whose path is missing; `variables` resolving to null counts as none. */
  resolveConfig: (config, context) => {
    const { optional_variables: optional, ...required } = config;
    const resolved = evaluateExpressions(required as unknown as JsonObject, context);
    if (!resolved.ok) return resolved;
    const resolvedConfig = resolved.value as JsonObject;
    const variables: Record<string, JsonValue> = isJsonObject(resolvedConfig.variables)
      ? { ...resolvedConfig.variables }
      : {};
    for (const [name, expression] of Object.entries(optional ?? {})) {
      const value = evaluateExpressions(expression, context);
      // defineProperty: a variable named `__proto__` stays a variable.
      if (value.ok)
        Object.defineProperty(variables, name, {
          value: value.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
    return ok({ ...resolvedConfig, variables });
  },
  classifyFailure: (reason) => (reason === 'record_gone' ? 'missing_record' : null),
};
