import { RuleName } from './field-spec';

/** Top-level keys read as words; dotted item keys stay literal. */
export function displayName(path: string): string {
  return path.includes('.') ? path : path.replace(/_/g, ' ');
}

export type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'id' | 'array' | 'object';

const TYPE: Record<Kind, string> = {
  string: 'The {field} must be a string.',
  integer: 'The {field} must be an integer.',
  id: 'The {field} must be an integer.',
  number: 'The {field} must be a number.',
  boolean: 'The {field} field must be true or false.',
  array: 'The {field} must be an array.',
  object: 'The {field} must be an object.',
};

const RULES: Record<Exclude<RuleName, 'type' | 'min' | 'max' | 'between'>, string> = {
  required: 'The {field} field is required.',
  filled: 'The {field} field must have a value.',
  in: 'The selected {field} is invalid.',
  pattern: 'The {field} format is invalid.',
  email: 'The {field} must be a valid email address.',
  url: 'The {field} must be a valid URL.',
  date: 'The {field} must be a valid date.',
  nonZero: 'The {field} must not be zero.',
  money: 'The {field} may not have more than 4 decimal places.',
};

function boundTemplate(kind: Kind, rule: 'min' | 'max' | 'between'): string {
  if (kind === 'array')
    return rule === 'min'
      ? 'The {field} must have at least {min} items.'
      : 'The {field} may not have more than {max} items.';
  const unit = kind === 'string' ? ' characters' : '';
  if (rule === 'between') return `The {field} must be between {min} and {max}${unit}.`;
  if (rule === 'min') return `The {field} must be at least {min}${unit}.`;
  return `The {field} may not be greater than {max}${unit}.`;
}

/**
 * A class-validator `message` function giving the catalogue text of `rule` (or the field's own
 * override). Bounds are filled in now; `{field}` stays, because only the error walk knows the
 * dotted key of an array item.
 */
export function messageOf(
  kind: Kind,
  rule: RuleName,
  overrides: Partial<Record<RuleName, string>> | undefined,
  vars: Record<string, number> = {},
): () => string {
  let template = overrides?.[rule];
  if (!template) {
    if (rule === 'type') template = TYPE[kind];
    else if (rule === 'min' || rule === 'max' || rule === 'between') template = boundTemplate(kind, rule);
    else template = RULES[rule];
  }
  const text = fill(template, vars);
  return () => text;
}

export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
