import { err, ok, Result } from '../shared/result';
import { addFieldError, FieldErrors, hasFieldErrors } from '../shared/field-errors';

/** Named values handed to the assistant at call time (CONTRACT §3.1, §15). */
export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_VALUE_LENGTH = 1000;
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Keys are checked against the name pattern; strings are kept as sent (trimmed), numbers and
 * booleans become their text. Errors are keyed `variables.<key>`.
 */
export function normalizeVariables(input: Readonly<Record<string, unknown>>): Result<Record<string, string>, FieldErrors> {
  const errors: FieldErrors = {};
  const entries = Object.entries(input);
  if (entries.length > MAX_VARIABLES) {
    addFieldError(errors, 'variables', `The variables may not have more than ${MAX_VARIABLES} items.`);
    return err(errors);
  }
  const out: Record<string, string> = {};
  for (const [key, raw] of entries) {
    const path = `variables.${key}`;
    if (!VARIABLE_NAME_PATTERN.test(key)) {
      addFieldError(errors, path, `The ${path} format is invalid.`);
      continue;
    }
    let value: string;
    if (typeof raw === 'string') value = raw.trim();
    else if ((typeof raw === 'number' && Number.isFinite(raw)) || typeof raw === 'boolean') value = String(raw);
    else {
      addFieldError(errors, path, `The ${path} must be a string.`);
      continue;
    }
    if ([...value].length > MAX_VARIABLE_VALUE_LENGTH) {
      addFieldError(errors, path, `The ${path} may not be greater than ${MAX_VARIABLE_VALUE_LENGTH} characters.`);
      continue;
    }
    out[key] = value;
  }
  return hasFieldErrors(errors) ? err(errors) : ok(out);
}
