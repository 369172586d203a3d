import { FieldErrors } from '@voiceplane/domain';
import { Ctor, FieldSpec, fieldsOf } from './field-spec';
import { message } from './messages';

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
