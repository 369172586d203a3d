import { evaluateExpressions } from '../expressions';
import type { JsonValue } from '../json';
import { PureStepKindRules, wiringFailure } from './step-kind';

/** The reply body of a sync webhook, expressions resolved. */
export interface RespondConfig {
  readonly body: JsonValue;
}

export const RESPOND_STEP: PureStepKindRules<RespondConfig> = {
  checkConfig: (c, bad) => {
    if (!('body' in c)) bad('body');
  },
  execute: (config, context) => {
    const r = evaluateExpressions(config.body, context);
    return r.ok ? { kind: 'ok', output: r.value } : wiringFailure(r.error);
  },
};
