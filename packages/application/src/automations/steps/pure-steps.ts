import { ExpressionContext, PURE_STEPS, PureStepKind, StepConfigs, StepResult } from '@voiceplane/domain';
import { StepHandler } from './step-handler';

/** Steps that need nothing outside the run (condition, validate.phone, respond, delay): the domain executes them. */
function pureStep<K extends PureStepKind>(kind: K): StepHandler<K> {
  // PURE_STEPS[K] takes StepConfigs[K]; the compiler cannot follow K through the indexed union.
  const execute = PURE_STEPS[kind] as unknown as (config: StepConfigs[K], context: ExpressionContext) => StepResult;
  return { execute: async (step, context) => execute(step.config, context) };
}

export const pureStepHandlers = (): { readonly [K in PureStepKind]: StepHandler<K> } => ({
  condition: pureStep('condition'),
  'validate.phone': pureStep('validate.phone'),
  respond: pureStep('respond'),
  delay: pureStep('delay'),
});
