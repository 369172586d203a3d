import { AutoRechargeProblem, BillingAmountProblem, TopUpRefusal } from '@voiceplane/domain';
import { BillingIngressRefusal, StartTopUpRefusal } from '@voiceplane/application';
import { Answer, AnswerTable } from '../../pipeline/answers';
import { validationBody } from '../../pipeline/families';
import { fieldErrors, FieldMessages } from '../../pipeline/field-messages';
import { displayName } from '../../validation';

export const TOP_UP_NOT_FOUND: Answer = { status: 404, body: { message: 'Top-up not found.' } };
/** Reading one top-up. */
export const TOP_UP_READ_ANSWERS: AnswerTable<'top_up_not_found'> = { top_up_not_found: TOP_UP_NOT_FOUND };
export const SANDBOX_NOT_FOUND: Answer = { status: 404, body: { message: 'Not found.' } };

/** The words of the billing amount rules (the validation catalogue, and the saved-card message of auto-recharge). */
export const BILLING_FIELD_MESSAGES: FieldMessages<AutoRechargeProblem> = {
  between: (field, p) => `The ${displayName(field)} must be between ${p.min} and ${p.max}.`,
  decimals: (field, p) => `The ${displayName(field)} may not have more than ${p.max} decimal places.`,
  payment_method_required: () => 'A saved payment method is required. Complete a top-up first.',
};

const amountErrors = (problems: BillingAmountProblem[]) => fieldErrors({ amount: problems }, BILLING_FIELD_MESSAGES);

/** `POST /api/user/billing/top-ups`. */
export const START_TOP_UP_ANSWERS: AnswerTable<StartTopUpRefusal> = {
  invalid_amount: ({ problems }) => ({ status: 422, body: validationBody('standard', amountErrors(problems)) }),
  account_gone: { status: 401, body: { error: 'Unauthorized' } },
  provider_unavailable: { status: 502, body: { message: 'The billing provider is unavailable.' } },
};

/** Sandbox top-up `complete`: another account's top-up is not found; a settled one is a 409. */
export const SANDBOX_SETTLE_ANSWERS: AnswerTable<TopUpRefusal> = {
  top_up_not_found: SANDBOX_NOT_FOUND,
  already_settled: { status: 409, body: { message: 'The top-up is already settled.' } },
};

/** The provider ingress: the `{error}` family. */
export const BILLING_INGRESS_ANSWERS: AnswerTable<BillingIngressRefusal> = {
  unknown_provider: { status: 404, body: { error: 'Unknown provider.' } },
  invalid_signature: { status: 400, body: { error: 'Invalid signature.' } },
};
