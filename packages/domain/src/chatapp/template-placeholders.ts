import { err, ok, Result } from '../common/result';

/**
 * Template placeholders: positional `{{1}}`…`{{n}}` (names `"1"`…`"n"`) or named
 * `{{snake_case}}`, never both in one body. Anything between `{{` and `}}` is a placeholder, so a
 * typo such as `{{ name }}` is refused at creation rather than sent to customers verbatim.
 */
export type PlaceholderStyle = 'none' | 'positional' | 'named';

export interface TemplatePlaceholders {
  readonly style: PlaceholderStyle;
  /** Names in order of first appearance, each once. */
  readonly variables: readonly string[];
}

export type PlaceholderRefusal =
  /** `{{1}}` and `{{name}}` in the same body. */
  | { readonly code: 'placeholders_mixed' }
  /** Neither a positive integer without leading zero nor snake_case (`{{Name}}`, `{{ 1 }}`, `{{}}`). */
  | { readonly code: 'placeholder_invalid'; readonly placeholder: string }
  /** Positional numbers must be exactly 1…n: `{{1}} {{3}}` misses 2. */
  | { readonly code: 'placeholders_not_consecutive'; readonly missing: readonly string[] };

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const POSITIONAL = /^[1-9]\d*$/;
const NAMED = /^[a-z][a-z0-9_]*$/;

export function parseTemplatePlaceholders(bodyText: string): Result<TemplatePlaceholders, PlaceholderRefusal> {
  const variables: string[] = [];
  for (const match of bodyText.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (!POSITIONAL.test(name) && !NAMED.test(name)) return err({ code: 'placeholder_invalid', placeholder: match[0] });
    if (!variables.includes(name)) variables.push(name);
  }
  const positional = variables.filter((v) => POSITIONAL.test(v));
  if (positional.length === 0) return ok({ style: variables.length === 0 ? 'none' : 'named', variables });
  if (positional.length !== variables.length) return err({ code: 'placeholders_mixed' });
  const highest = Math.max(...positional.map(Number));
  const missing = Array.from({ length: highest }, (_, i) => String(i + 1)).filter((n) => !positional.includes(n));
  if (missing.length > 0) return err({ code: 'placeholders_not_consecutive', missing });
  return ok({ style: 'positional', variables });
}

/** Values as the send request gives them: numbers and booleans are sent as their text. */
export type TemplateVariableInput = string | number | boolean | null | undefined;

export type TemplateVariablesMissing = {
  readonly code: 'template_variables_missing';
  readonly missing: readonly string[];
};

export const stringifyTemplateVariable = (value: string | number | boolean): string => String(value);

/**
 * The body with every placeholder replaced. A named variable may also be given by its position
 * (`"1"` for the first name); the name wins when both are present. Unknown keys are ignored. A
 * variable is missing when absent, null, or blank: the chat app refuses empty parameters.
 * `missing` lists names in the template's order.
 */
export function renderTemplate(
  bodyText: string,
  variables: readonly string[],
  given: Readonly<Record<string, TemplateVariableInput>>,
): Result<string, TemplateVariablesMissing> {
  const resolved = resolveTemplateVariables(variables, given);
  if (!resolved.ok) return resolved;
  const values = new Map(resolved.value.map((p) => [p.name, p.value]));
  // One pass over the original body: a value that itself contains `{{2}}` is not expanded again.
  return ok(bodyText.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole));
}

/** The value of every variable in the template's order (what a provider sends as parameters), by the rules of `renderTemplate`. */
export function resolveTemplateVariables(
  variables: readonly string[],
  given: Readonly<Record<string, TemplateVariableInput>>,
): Result<{ readonly name: string; readonly value: string }[], TemplateVariablesMissing> {
  const values: { name: string; value: string }[] = [];
  const missing: string[] = [];
  const named = !variables.some((v) => POSITIONAL.test(v));
  variables.forEach((name, index) => {
    const value = present(given, name) ?? (named ? present(given, String(index + 1)) : null);
    if (value === null) missing.push(name);
    else values.push({ name, value });
  });
  if (missing.length > 0) return err({ code: 'template_variables_missing', missing });
  return ok(values);
}

/** Own keys only: a variable named `constructor` must not read `Object.prototype`. */
function present(given: Readonly<Record<string, TemplateVariableInput>>, key: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(given, key)) return null;
  const value = given[key];
  if (value === null || value === undefined) return null;
  const text = stringifyTemplateVariable(value);
  return text.trim() === '' ? null : text;
}
