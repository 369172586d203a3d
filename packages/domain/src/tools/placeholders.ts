/**
 * Placeholder grammar of tool templates:
 *  - `{{name}}` (spaces inside the braces allowed): a variable, in the URL, header values and
 *    static-field values;
 *  - `{name}` where `name` is a schema parameter: that parameter, in the URL only;
 *  - any other `{…}` is text.
 */

/** Every brace group, the way the write-time URL check masks placeholders. */
export const PLACEHOLDER_PATTERN = /\{\{[^{}]*\}\}|\{[^{}]*\}/g;

// Alternation order matters: at a `{{` the variable form is tried first.
const SUBSTITUTION_PATTERN = /\{\{([^{}]*)\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export interface PlaceholderValues {
  readonly variables: ReadonlyMap<string, string>;
  /** Parameter names of the schema with their collected values; null where `{param}` is not allowed. */
  readonly params: { readonly declared: ReadonlySet<string>; readonly collected: ReadonlyMap<string, string> } | null;
}

/** What substitution ran into, gathered across every template of one request. */
export interface SubstitutionLog {
  /** Variables that had no value, in order of first use. */
  readonly unresolved: Set<string>;
  /** Parameters used by a `{param}`. */
  readonly consumed: Set<string>;
}

export function newSubstitutionLog(): SubstitutionLog {
  return { unresolved: new Set(), consumed: new Set() };
}

/**
 * One left-to-right pass: inserted values are never scanned again, so a value that looks like a
 * placeholder stays text. Unknown variables become `""` and are logged.
 */
export function substitute(
  template: string,
  values: PlaceholderValues,
  encode: (value: string) => string,
  log: SubstitutionLog,
): string {
  if (!template.includes('{')) return template;
  return template.replace(
    SUBSTITUTION_PATTERN,
    (whole: string, variable: string | undefined, param: string | undefined) => {
      if (variable !== undefined) {
        const name = variable.trim();
        const value = values.variables.get(name);
        if (value === undefined) {
          log.unresolved.add(name);
          return '';
        }
        return encode(value);
      }
      if (values.params === null || !values.params.declared.has(param as string)) return whole;
      log.consumed.add(param as string);
      return encode(values.params.collected.get(param as string) ?? '');
    },
  );
}
