import { err, ok, Result } from '../common/result';
import { addFieldProblem, FieldProblems, hasFieldProblems } from '../common/field-problems';

/** Named values handed to the assistant at call time. */
export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_VALUE_LENGTH = 1000;
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** What can be wrong with a variable map (`too_many`, on `variables`) or one entry (on `variables.<key>`). */
export type VariableProblem = 'too_many' | 'bad_name' | 'not_text' | 'too_long';

/**
 * Keys are checked against the name pattern; strings are kept as sent (trimmed), numbers and
 * booleans become their text. Problems are keyed `variables.<key>`.
 */
export function normalizeVariableValues(
  input: Readonly<Record<string, unknown>>,
): Result<Record<string, string>, FieldProblems<VariableProblem>> {
  const problems: FieldProblems<VariableProblem> = {};
  const entries = Object.entries(input);
  if (entries.length > MAX_VARIABLES) {
    addFieldProblem(problems, 'variables', 'too_many');
    return err(problems);
  }
  const out: Record<string, string> = {};
  for (const [key, raw] of entries) {
    const path = `variables.${key}`;
    if (!VARIABLE_NAME_PATTERN.test(key)) {
      addFieldProblem(problems, path, 'bad_name');
      continue;
    }
    let value: string;
    if (typeof raw === 'string') value = raw.trim();
    else if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'boolean') value = String(raw);
    else {
      addFieldProblem(problems, path, 'not_text');
      continue;
    }
    if ([...value].length > MAX_VARIABLE_VALUE_LENGTH) {
      addFieldProblem(problems, path, 'too_long');
      continue;
    }
    out[key] = value;
  }
  return hasFieldProblems(problems) ? err(problems) : ok(out);
}
