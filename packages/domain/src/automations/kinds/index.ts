import { Result } from '../../common/result';
import { evaluateExpressions, ExpressionContext, WiringError } from '../expressions';
import type { JsonObject } from '../json';
import type { AutomationStep, StepConfigs, StepKind } from '../step-kinds';
import { CONDITION_STEP } from './condition';
import { DELAY_STEP } from './delay';
import { HTTP_REQUEST_STEP } from './http-request';
import { MAKE_CALL_STEP } from './make-call';
import { PUSH_NOTE_STEP } from './push-note';
import { RESPOND_STEP } from './respond';
import { SEND_TEMPLATE_STEP } from './send-template';
import { PureStepKindRules, StepKindRules } from './step-kind';
import { TABLE_LOOKUP_STEP } from './table-lookup';
import { VALIDATE_PHONE_STEP } from './validate-phone';

export { CONDITION_OPERATORS, ConditionConfig, ConditionOperator } from './condition';
export { DelayConfig, MAX_DELAY_MINUTES, MIN_DELAY_MINUTES } from './delay';
export { HTTP_METHODS, HttpMethod, HttpRequestConfig, requestBody } from './http-request';
export { MakeCallConfig } from './make-call';
export { PushNoteConfig } from './push-note';
export { RespondConfig } from './respond';
export { SendTemplateConfig } from './send-template';
export { BadKey, PureStepKindRules, StepKindRules, wiringFailure } from './step-kind';
export { TableLookupConfig } from './table-lookup';
export { eventSample } from './trigger-events';
export { ValidatePhoneConfig } from './validate-phone';

/**
 * The step kinds' rules, one object per kind: a kind listed in `STEP_KINDS` without its object
 * here does not compile.
 */
export const STEP_KIND_RULES = {
  'validate.phone': VALIDATE_PHONE_STEP,
  condition: CONDITION_STEP,
  'http.request': HTTP_REQUEST_STEP,
  'chatapp.send_template': SEND_TEMPLATE_STEP,
  'voice.make_call': MAKE_CALL_STEP,
  delay: DELAY_STEP,
  'table.lookup': TABLE_LOOKUP_STEP,
  respond: RESPOND_STEP,
  'crm.push_note': PUSH_NOTE_STEP,
} as const satisfies { readonly [K in StepKind]: StepKindRules<StepConfigs[K]> };

/** The step kinds whose execution needs nothing outside the run: those whose rules execute. */
export type PureStepKind = {
  [K in StepKind]: (typeof STEP_KIND_RULES)[K] extends PureStepKindRules<StepConfigs[K]> ? K : never;
}[StepKind];

const isPure = (kind: StepKind): kind is PureStepKind => 'execute' in STEP_KIND_RULES[kind];
export const PURE_STEP_KINDS: readonly PureStepKind[] = (Object.keys(STEP_KIND_RULES) as StepKind[]).filter(isPure);

/** How a pure step executes against the run so far. */
export function pureStepRules<K extends PureStepKind>(kind: K): PureStepKindRules<StepConfigs[K]> {
  return STEP_KIND_RULES[kind] as unknown as PureStepKindRules<StepConfigs[K]>;
}

/** The step's configuration with every expression resolved, by its kind's rule. */
export function resolveStepConfig(step: AutomationStep, context: ExpressionContext): Result<JsonObject, WiringError> {
  const rules = STEP_KIND_RULES[step.kind] as StepKindRules<typeof step.config>;
  if (rules.resolveConfig) return rules.resolveConfig(step.config, context);
  return evaluateExpressions(step.config as unknown as JsonObject, context) as Result<JsonObject, WiringError>;
}
