import { addFieldProblem, FieldProblems, hasFieldProblems } from '../common/field-problems';
import { err, ok, Result } from '../common/result';
import { normalizeVariableValues, VariableProblem } from '../assistants/variables';

/** `variables` of a chat-app call: tighter than make_call's. */
export const CHATAPP_CALL_MAX_VARIABLES = 20;
export const CHATAPP_CALL_MAX_VARIABLE_LENGTH = 500;

/**
 * Same names and value rules as every call's variables (`normalizeVariableValues`), within the
 * chat-app limits: more than 20 keys is one problem on `variables`; a value over 500 characters
 * (counted in code points) is `too_long` on `variables.<key>`.
 */
export function normalizeChatappCallVariables(
  input: Readonly<Record<string, unknown>>,
): Result<Record<string, string>, FieldProblems<VariableProblem>> {
  const problems: FieldProblems<VariableProblem> = {};
  if (Object.keys(input).length > CHATAPP_CALL_MAX_VARIABLES) {
    addFieldProblem(problems, 'variables', 'too_many');
    return err(problems);
  }
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(input)) {
    const one = normalizeVariableValues({ [key]: raw });
    if (!one.ok) {
      for (const [field, found] of Object.entries(one.error))
        for (const problem of found) addFieldProblem(problems, field, problem);
      continue;
    }
    const value = one.value[key];
    if ([...value].length > CHATAPP_CALL_MAX_VARIABLE_LENGTH) addFieldProblem(problems, `variables.${key}`, 'too_long');
    else out[key] = value;
  }
  return hasFieldProblems(problems) ? err(problems) : ok(out);
}
