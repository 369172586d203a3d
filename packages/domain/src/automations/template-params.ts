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
  readonly invalid: readonly InvalidParam[];
}

/** Why a given param value was refused; the HTTP layer words it with the param's label. */
export type ParamProblem =
  | { readonly code: 'not_id' }
  | { readonly code: 'not_string' }
  | { readonly code: 'too_long'; readonly max: number }
  | { readonly code: 'format_invalid' }
  | { readonly code: 'not_phone' }
  | { readonly code: 'not_boolean' }
  | { readonly code: 'not_integer' }
  | { readonly code: 'out_of_range'; readonly min: number; readonly max: number }
  | { readonly code: 'not_url' }
  /** The URL policy's own reason, passed on as it words it. */
  | { readonly code: 'url_refused'; readonly reason: string }
  | { readonly code: 'not_json_object' }
  | { readonly code: 'too_many_names'; readonly max: number };

export interface InvalidParam {
  readonly spec: ParamSpec;
  readonly problem: ParamProblem;
}

/** Anything the domain cannot decide alone: the write-time URL check. */
export interface ParamContext {
  /** Null when the URL is acceptable, else the reason. */
  readonly checkUrl: (url: string) => string | null;
}

type Coerced =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly problem: ParamProblem };
type Rule = (raw: JsonValue, context: ParamContext) => Coerced;

const FIELD_PATH = /^[A-Za-z0-9_.]+$/;
const INPUT_FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_VARIABLE_FIELDS = 20;
const good = (value: JsonValue): Coerced => ({ ok: true, value });
const bad = (problem: ParamProblem): Coerced => ({ ok: false, problem });

const id: Rule = (raw) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return good(raw);
  if (typeof raw === 'string' && /^[0-9]{1,15}$/.test(raw.trim()) && Number(raw) > 0) return good(Number(raw));
  return bad({ code: 'not_id' });
};
const text =
  (max: number, pattern?: RegExp): Rule =>
  (raw) => {
    const v = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
    if (typeof v !== 'string') return bad({ code: 'not_string' });
    const s = v.trim();
    if (s.length > max) return bad({ code: 'too_long', max });
    if (pattern && !pattern.test(s)) return bad({ code: 'format_invalid' });
    return good(s);
  };
const phone: Rule = (raw) =>
  typeof raw === 'string' && E164_PATTERN.test(raw.trim()) ? good(raw.trim()) : bad({ code: 'not_phone' });
const bool: Rule = (raw) => {
  if (raw === true || raw === 'true' || raw === 1 || raw === '1') return good(true);
  if (raw === false || raw === 'false' || raw === 0 || raw === '0') return good(false);
  return bad({ code: 'not_boolean' });
};
const integer =
  (min: number, max: number): Rule =>
  (raw) => {
    const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isInteger(n)) return bad({ code: 'not_integer' });
    if (n < min || n > max) return bad({ code: 'out_of_range', min, max });
    return good(n);
  };
const url: Rule = (raw, context) => {
  if (typeof raw !== 'string') return bad({ code: 'not_url' });
  const problem = context.checkUrl(raw.trim());
  return problem === null ? good(raw.trim()) : bad({ code: 'url_refused', reason: problem });
};
const variablesMap: Rule = (raw) => {
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      return bad({ code: 'not_json_object' });
    }
  }
  return isJsonObject(v) ? good(v as JsonValue) : bad({ code: 'not_json_object' });
};
const variableFields: Rule = (raw) => {
  if (typeof raw !== 'string') return bad({ code: 'not_string' });
  const names = variableFieldNames(raw);
  if (names.length > MAX_VARIABLE_FIELDS) return bad({ code: 'too_many_names', max: MAX_VARIABLE_FIELDS });
  if (names.some((n) => n.length > 128 || !FIELD_PATH.test(n))) return bad({ code: 'format_invalid' });
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

const absent = (v: JsonValue | undefined): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Unknown keys are dropped; given values are coerced; absent required ones are reported first (check 5). */
export function checkTemplateParams(
  template: AutomationTemplate,
  raw: { readonly [key: string]: JsonValue },
  context: ParamContext,
): ParamCheck {
  const params: Record<string, JsonValue> = {};
  const missing: ParamSpec[] = [];
  const invalid: InvalidParam[] = [];
  for (const spec of template.params) {
    const value = Object.prototype.hasOwnProperty.call(raw, spec.key) ? raw[spec.key] : undefined;
    if (absent(value)) {
      if (spec.required) missing.push(spec);
      continue;
    }
    const coerced = RULES[spec.key](value as JsonValue, context);
    if (coerced.ok) params[spec.key] = coerced.value;
    else invalid.push({ spec, problem: coerced.problem });
  }
  return { params, missing, invalid };
}
