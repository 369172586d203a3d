import { extractedVariablesAtEnd, PostCallEvaluation } from '../calls/call-end';

/**
 * `extracted_variables` of a `conversation_ended` event: the assistant's
 * `post_call_schema` evaluated over the chat transcript. `{}` when evaluation is off. Otherwise
 * exactly the schema's fields (null where the evaluator found nothing; keys it made up are
 * dropped), `status` (true only when the evaluator said true) and `summary` (a string). `produced`
 * null — the evaluator failed, or the transcript changed after it ran — claims nothing, the shape a
 * call gets when its runtime sent no values.
 */
export function evaluatedConversationVariables(
  evaluation: PostCallEvaluation,
  produced: Readonly<Record<string, unknown>> | null,
): Record<string, unknown> {
  if (!evaluation.enabled || produced === null) return extractedVariablesAtEnd(evaluation, undefined);
  const variables: Record<string, unknown> = {};
  for (const name of evaluation.fieldNames) variables[name] = produced[name] ?? null;
  return {
    ...variables,
    status: produced.status === true,
    summary: typeof produced.summary === 'string' ? produced.summary : '',
  };
}
