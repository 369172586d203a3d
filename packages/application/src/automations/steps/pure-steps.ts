import { PURE_STEP_KINDS, PureStepKind, pureStepRules } from '@voiceplane/domain';
import { StepHandler } from './step-handler';

/** A step that needs nothing outside the run executes by its kind's domain rules. */
function pureStep<K extends PureStepKind>(kind: K): StepHandler<K> {
  const rules = pureStepRules(kind);
  return { execute: async (step, context) => rules.execute(step.config, context) };
}

/** Every pure kind's handler: a kind the domain executes needs nothing here. */
export const pureStepHandlers = (): { readonly [K in PureStepKind]: StepHandler<K> } =>
  Object.fromEntries(PURE_STEP_KINDS.map((kind) => [kind, pureStep(kind)])) as {
    readonly [K in PureStepKind]: StepHandler<K>;
  };
