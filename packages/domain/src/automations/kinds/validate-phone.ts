import { E164_PATTERN } from '../../assistants/built-in-tools';
import { asText, evaluateExpressions } from '../expressions';
import { PureStepKindRules, requireLoneExpression, wiringFailure } from './step-kind';

/** `field`: a lone expression naming the phone number. */
export interface ValidatePhoneConfig {
  readonly field: string;
}

/** The field must exist (else `wiring_error`) and hold an E.164 number (else `step_error`). */
export const VALIDATE_PHONE_STEP: PureStepKindRules<ValidatePhoneConfig> = {
  checkConfig: (c, bad) => requireLoneExpression(c, 'field', bad),
  execute: (config, context) => {
    const r = evaluateExpressions(config.field, context);
    if (!r.ok) return wiringFailure(r.error);
    const phone = typeof r.value === 'string' ? r.value.trim() : null;
    if (phone === null || !E164_PATTERN.test(phone))
      return { kind: 'failed', reason: 'invalid_phone', detail: asText(r.value) };
    return { kind: 'ok', output: { phone } };
  },
};
