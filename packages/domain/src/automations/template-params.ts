import { E164_PATTERN } from '../assistants/built-in-tools';
import { TOOL_NAME_PATTERN } from '../tools/tool';
import type { AutomationTemplate, ParamSpec, TemplateParams } from './catalogue';
import { isJsonObject, JsonValue } from './json';
import { MAX_DELAY_MINUTES, MIN_DELAY_MINUTES } from './kinds/delay';
import { MAX_CHAIN_ATTEMPTS } from './step-kinds';
import { variableFieldNames } from './catalogue';

/** Checks 5 and 6 on a template's params, with their coercion. */
export interface ParamCheck {
  /** Coerced values of the known keys that were given (absent and empty ones left out). */
  readonly params: TemplateParams;
  /** Specs of required params that are absent, null or `""`. */
  readonly missing: readonly ParamSpec[];
  /** Problems keyed `params.<key>`, in spec order. */
  readonly invalid: readonly { readonly spec: ParamSpec; readonly message: string }[];
}

/** Anything the domain cannot decide alone: the write-time URL check. */
export interface ParamContext {
  /** Null when the URL is acceptable, else the reason. */
  readonly checkUrl: (url: string) => string | null;
}

type Coerced = { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly message: string };
type Rule = (raw: JsonValue, label: string, context: ParamContext) => Coerced;

const FIELD_PATH = /^[A-Za-z0-9_.]+$/;
const INPUT_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const good = (value: JsonValue): Coerced => ({ ok: true, value });
const bad = (message: string): Coerced => ({ ok: false, message });
const lower = (label: string) => label.toLowerCase();

const id: Rule = (raw, label) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return good(raw);
  if (typeof raw === 'string' && /^[0-9]{1,15}$/.test(raw.trim()) && Number(raw) > 0) return good(Number(raw));
  return bad(`The ${lower(label)} must be an integer id.`);
};
const text = (max: number, pattern?: RegExp): Rule => (raw, label) => {
  const v = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
  if (typeof v !== 'string') return bad(`The ${lower(label)} must be a string.`);
  const s = v.trim();
  if (s.length > max) return bad(`The ${lower(label)} may not be greater than ${max} characters.`);
  if (pattern && !pattern.test(s)) return bad(`The ${lower(label)} format is invalid.`);
  return good(s);
};
const phone: Rule = (raw, label) => (typeof raw === 'string' && E164_PATTERN.test(raw.trim()) ? good(raw.trim()) : bad(`The ${lower(label)} must be a valid E.164 phone number.`));
const bool: Rule = (raw, label) => {
  if (raw === true || raw === 'true' || raw === 1 || raw === '1') return good(true);
  if (raw === false || raw === 'false' || raw === 0 || raw === '0') return good(false);
  return bad(`The ${lower(label)} field must be true or false.`);
};
const integer = (min: number, max: number): Rule => (raw, label) => {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n)) return bad(`The ${lower(label)} must be an integer.`);
  if (n < min || n > max) return bad(`The ${lower(label)} must be between ${min} and ${max}.`);
  return good(n);
};
const url: Rule = (raw, label, context) => {
  if (typeof raw !== 'string') return bad(`The ${lower(label)} must be a valid URL.`);
  const problem = context.checkUrl(raw.trim());
  return problem === null ? good(raw.trim()) : bad(problem);
};
const variablesMap: Rule = (raw, label) => {
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      return bad(`The ${lower(label)} must be a JSON object.`);
    }
  }
  return isJsonObject(v) ? good(v as JsonValue) : bad(`The ${lower(label)} must be a JSON object.`);
};
const variableFields: Rule = (raw, label) => {
  if (typeof raw !== 'string') return bad(`The ${lower(label)} must be a string.`);
  const names = variableFieldNames(raw);
  if (names.length > 20) return bad(`The ${lower(label)} may not have more than 20 names.`);
  if (names.some((n) => n.length > 128 || !FIELD_PATH.test(n))) return bad(`The ${lower(label)} format is invalid.`);
  return good(names.join(','));
};

/** The "validation" column of each param in the template catalogue (resource checks come later). */
const RULES: Readonly<Record<string, Rule>> = {
  test_phone_number: phone,
  phone_field: text(128, FIELD_PATH),
  name_field: text(128, FIELD_PATH),
  variable_fields: variableFields,
  sender_id: id,
  template_id: id,
  variables_map: variablesMap,
  url,
  include_transcript: bool,
  table_id: id,
  key_column: text(64),
  input_field: text(64, INPUT_FIELD),
  tool_name: text(64, TOOL_NAME_PATTERN),
  tool_description: text(255),
  delay_minutes: integer(MIN_DELAY_MINUTES, MAX_DELAY_MINUTES),
  max_attempts: integer(1, MAX_CHAIN_ATTEMPTS),
  connection_id: id,
  note_template: text(2000),
};

const absent = (v: JsonValue | undefined): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Unknown keys are dropped; given values are coerced; absent required ones are reported first (check 5). */
export function checkTemplateParams(template: AutomationTemplate, raw: { readonly [key: string]: JsonValue }, context: ParamContext): ParamCheck {
  const params: Record<string, JsonValue> = {};
  const missing: ParamSpec[] = [];
  const invalid: { spec: ParamSpec; message: string }[] = [];
  for (const spec of template.params) {
    const value = Object.prototype.hasOwnProperty.call(raw, spec.key) ? raw[spec.key] : undefined;
    if (absent(value)) {
      if (spec.required) missing.push(spec);
      continue;
    }
    const coerced = RULES[spec.key](value as JsonValue, spec.label, context);
    if (coerced.ok) params[spec.key] = coerced.value;
    else invalid.push({ spec, message: coerced.message });
  }
  return { params, missing, invalid };
}
