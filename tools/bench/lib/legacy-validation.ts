// The hand-written engine this project used before class-validator (commit b18275f), kept only so
// tools/bench/validation.ts can measure both in one run. Delete once the figures are in the README.
import { FieldErrors } from '@voiceplane/domain';
/**
 * One declaration per DTO field drives coercion (CONTRACT §1.3), validation with the message
 * catalogue (§1.6) and the OpenAPI schema — so the document can never drift from what is enforced.
 */
export type Ctor<T = unknown> = new () => T;

interface Common {
  /** Required on create; ignored when validating a partial update. */
  readonly required?: boolean;
  /** `null` is a value (clears the field); `""` becomes null. */
  readonly nullable?: boolean;
  /** Overrides catalogue messages for this field; `{field}` is substituted. */
  readonly messages?: Partial<Record<RuleName, string>>;
  readonly description?: string;
  readonly example?: unknown;
}

export type RuleName = 'required' | 'type' | 'min' | 'max' | 'between' | 'in' | 'pattern' | 'email' | 'url' | 'items' | 'filled';

export type FieldSpec =
  | (Common & { readonly kind: 'string'; readonly min?: number; readonly max?: number; readonly trim?: boolean; readonly pattern?: RegExp; readonly enum?: readonly string[]; readonly upper?: boolean; readonly email?: boolean; readonly url?: boolean })
  | (Common & { readonly kind: 'integer'; readonly min?: number; readonly max?: number })
  | (Common & { readonly kind: 'number'; readonly min?: number; readonly max?: number })
  | (Common & { readonly kind: 'boolean' })
  | (Common & { readonly kind: 'id' })
  | (Common & { readonly kind: 'ids'; readonly max?: number })
  | (Common & { readonly kind: 'object' })
  | (Common & { readonly kind: 'array'; readonly items?: Ctor | FieldSpec; readonly max?: number; readonly min?: number })
  | (Common & { readonly kind: 'any' });

const registry = new Map<Function, Map<string, FieldSpec>>();

export function fieldsOf(target: Function): Map<string, FieldSpec> {
  const own = registry.get(target) ?? new Map<string, FieldSpec>();
  const parent = Object.getPrototypeOf(target);
  if (parent && parent !== Function.prototype && registry.has(parent)) {
    return new Map([...fieldsOf(parent), ...own]);
  }
  return own;
}

export function registerField(target: Function, key: string, spec: FieldSpec): void {
  let fields = registry.get(target);
  if (!fields) registry.set(target, (fields = new Map()));
  fields.set(key, spec);
}

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

type Options<K extends FieldSpec['kind']> = Omit<Extract<FieldSpec, { kind: K }>, 'kind'>;

function field(spec: FieldSpec): PropertyDecorator {
  return (target, key) => registerField(target.constructor, String(key), spec);
}

export const Str = (o: Options<'string'> = {}) => field({ kind: 'string', ...o });
export const Int = (o: Options<'integer'> = {}) => field({ kind: 'integer', ...o });
export const Num = (o: Options<'number'> = {}) => field({ kind: 'number', ...o });
export const Bool = (o: Options<'boolean'> = {}) => field({ kind: 'boolean', ...o });
/** Positive integer id; a string of digits is accepted. */
export const Id = (o: Options<'id'> = {}) => field({ kind: 'id', ...o });
/** Array of ids; duplicates are removed. */
export const Ids = (o: Options<'ids'> = {}) => field({ kind: 'ids', ...o });
export const Obj = (o: Options<'object'> = {}) => field({ kind: 'object', ...o });
export const Arr = (items: Ctor | FieldSpec | undefined, o: Omit<Options<'array'>, 'items'> = {}) => field({ kind: 'array', items, ...o });
export const Any = (o: Options<'any'> = {}) => field({ kind: 'any', ...o });

export interface ValidateOptions {
  /** Partial update: nothing is required, and `""`/`null` on a non-nullable field is an error. */
  readonly partial?: boolean;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const NOT_OBJECT = 'The request body must be a JSON object.';
const ABSENT = Symbol('absent');

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Coerces and checks `input` against the DTO's declared fields. The result holds only the keys
 * that were sent (after coercion), so partial updates can tell "absent" from "null".
 */
export function validateDto<T>(dto: Ctor<T>, input: unknown, options: ValidateOptions = {}, prefix = ''): Validated<T> {
  if (!isPlainObject(input)) {
    const key = prefix ? prefix.slice(0, -1) : 'body';
    return { ok: false, errors: { [key]: [prefix ? `The ${key} must be an object.` : NOT_OBJECT] } };
  }
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = {};
  for (const [key, spec] of fieldsOf(dto)) {
    const path = prefix + key;
    const has = Object.prototype.hasOwnProperty.call(input, key);
    const result = checkValue(spec, has ? input[key] : ABSENT, path, options, errors);
    if (result !== ABSENT) out[key] = result;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: Object.assign(new dto() as object, out) as T };
}

function push(errors: FieldErrors, path: string, text: string): typeof ABSENT {
  (errors[path] ??= []).push(text);
  return ABSENT;
}

function checkValue(spec: FieldSpec, raw: unknown, path: string, options: ValidateOptions, errors: FieldErrors): unknown {
  let value = raw;
  if (typeof value === 'string' && spec.kind !== 'any' && !(spec.kind === 'string' && spec.trim === false)) value = value.trim();
  const empty = value === ABSENT || value === null || value === '';
  if (empty) {
    if (value === ABSENT) {
      if (spec.required && !options.partial) return push(errors, path, message(spec, 'required', path));
      return ABSENT;
    }
    if (spec.nullable) return null;
    if (options.partial) return push(errors, path, message(spec, 'filled', path));
    if (spec.required) return push(errors, path, message(spec, 'required', path));
    return ABSENT;
  }
  switch (spec.kind) {
    case 'string': return checkString(spec, value, path, errors);
    case 'integer': return checkNumber(spec, value, path, errors, true);
    case 'number': return checkNumber(spec, value, path, errors, false);
    case 'boolean': {
      const b = toBoolean(value);
      return b === undefined ? push(errors, path, message(spec, 'type', path)) : b;
    }
    case 'id': {
      const id = toId(value);
      return id === undefined ? push(errors, path, message(spec, 'type', path)) : id;
    }
    case 'ids': {
      if (!Array.isArray(value)) return push(errors, path, message(spec, 'type', path));
      const ids: number[] = [];
      value.forEach((item, i) => {
        const id = toId(typeof item === 'string' ? item.trim() : item);
        if (id === undefined) push(errors, `${path}.${i}`, `The ${path}.${i} must be an integer.`);
        else if (!ids.includes(id)) ids.push(id);
      });
      if (spec.max !== undefined && value.length > spec.max) return push(errors, path, message(spec, 'max', path, { max: spec.max }));
      return ids;
    }
    case 'object':
      return isPlainObject(value) ? value : push(errors, path, message(spec, 'type', path));
    case 'array': return checkArray(spec, value, path, options, errors);
    case 'any': return value;
  }
}

function checkString(spec: Extract<FieldSpec, { kind: 'string' }>, value: unknown, path: string, errors: FieldErrors): unknown {
  if (typeof value !== 'string') return push(errors, path, message(spec, 'type', path));
  const s = spec.upper ? value.toUpperCase() : value;
  const length = [...s].length;
  if (spec.min !== undefined && spec.max !== undefined && (length < spec.min || length > spec.max) && spec.min > 1) {
    return push(errors, path, message(spec, 'between', path, { min: spec.min, max: spec.max }));
  }
  if (spec.max !== undefined && length > spec.max) return push(errors, path, message(spec, 'max', path, { max: spec.max }));
  if (spec.min !== undefined && length < spec.min) return push(errors, path, message(spec, 'min', path, { min: spec.min }));
  if (spec.enum && !spec.enum.includes(s)) return push(errors, path, message(spec, 'in', path));
  if (spec.pattern && !spec.pattern.test(s)) return push(errors, path, message(spec, 'pattern', path));
  if (spec.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return push(errors, path, message(spec, 'email', path));
  if (spec.url && !isAbsoluteUrl(s)) return push(errors, path, message(spec, 'url', path));
  return s;
}

function checkNumber(spec: Extract<FieldSpec, { kind: 'integer' | 'number' }>, value: unknown, path: string, errors: FieldErrors, integer: boolean): unknown {
  const n = toNumber(value);
  if (n === undefined || (integer && !Number.isInteger(n))) return push(errors, path, message(spec, 'type', path));
  const { min, max } = spec;
  if (min !== undefined && max !== undefined && (n < min || n > max)) return push(errors, path, message(spec, 'between', path, { min, max }));
  if (min !== undefined && n < min) return push(errors, path, message(spec, 'min', path, { min }));
  if (max !== undefined && n > max) return push(errors, path, message(spec, 'max', path, { max }));
  return n;
}

function checkArray(spec: Extract<FieldSpec, { kind: 'array' }>, value: unknown, path: string, options: ValidateOptions, errors: FieldErrors): unknown {
  if (!Array.isArray(value)) return push(errors, path, message(spec, 'type', path));
  if (spec.max !== undefined && value.length > spec.max) return push(errors, path, message(spec, 'max', path, { max: spec.max }));
  if (spec.min !== undefined && value.length < spec.min) return push(errors, path, message(spec, 'min', path, { min: spec.min }));
  const items = spec.items;
  if (!items) return value;
  const out: unknown[] = [];
  let failed = false;
  value.forEach((item, i) => {
    const itemPath = `${path}.${i}`;
    if (typeof items === 'function') {
      // Items of an array are whole objects even inside a partial update.
      const r = validateDto(items, item, { partial: false }, `${itemPath}.`);
      if (r.ok) out.push(r.value);
      else {
        failed = true;
        for (const [k, msgs] of Object.entries(r.errors)) (errors[k] ??= []).push(...msgs);
      }
    } else {
      const before = Object.keys(errors).length;
      const v = checkValue({ ...items, required: true } as FieldSpec, item, itemPath, { partial: false }, errors);
      if (Object.keys(errors).length > before) failed = true;
      else out.push(v);
    }
  });
  return failed ? ABSENT : out;
}

export function toBoolean(v: unknown): boolean | undefined {
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return undefined;
}

export function toId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^[0-9]{1,15}$/.test(v) && Number(v) > 0) return Number(v);
  return undefined;
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) return Number(v);
  return undefined;
}

function isAbsoluteUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
