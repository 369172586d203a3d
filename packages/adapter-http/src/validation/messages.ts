import { FieldSpec, RuleName } from './field-spec';

/** Top-level keys read as words; dotted item keys stay literal (CONTRACT D1). */
export function displayName(path: string): string {
  return path.includes('.') ? path : path.replace(/_/g, ' ');
}

const CATALOGUE: Record<string, string> = {
  required: 'The {field} field is required.',
  filled: 'The {field} field must have a value.',
  string: 'The {field} must be a string.',
  integer: 'The {field} must be an integer.',
  id: 'The {field} must be an integer.',
  ids: 'The {field} must be an array.',
  number: 'The {field} must be a number.',
  boolean: 'The {field} field must be true or false.',
  array: 'The {field} must be an array.',
  object: 'The {field} must be an object.',
  in: 'The selected {field} is invalid.',
  pattern: 'The {field} format is invalid.',
  email: 'The {field} must be a valid email address.',
  url: 'The {field} must be a valid URL.',
};

export function message(spec: FieldSpec, rule: RuleName, path: string, vars: Record<string, string | number> = {}): string {
  let template = spec.messages?.[rule];
  if (!template) {
    if (rule === 'type') template = CATALOGUE[spec.kind] ?? 'The {field} is invalid.';
    else if (rule === 'min' || rule === 'max' || rule === 'between') template = boundTemplate(spec, rule);
    else template = CATALOGUE[rule] ?? 'The {field} is invalid.';
  }
  return fill(template, { field: displayName(path), ...vars });
}

function boundTemplate(spec: FieldSpec, rule: 'min' | 'max' | 'between'): string {
  const unit = spec.kind === 'string' ? ' characters' : '';
  if (spec.kind === 'array' || spec.kind === 'ids') {
    return rule === 'min' ? 'The {field} must have at least {min} items.' : 'The {field} may not have more than {max} items.';
  }
  if (rule === 'between') return `The {field} must be between {min} and {max}${unit}.`;
  if (rule === 'min') return `The {field} must be at least {min}${unit}.`;
  return `The {field} may not be greater than {max}${unit}.`;
}

export function fill(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
