/** The values a trigger input, a step configuration and a step output are made of. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Structural equality of two JSON values (key order does not matter). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]))
    );
  }
  return false;
}

/** `{"a":{"b":value}}` for the dot path `a.b`. */
export function atPath(path: string, value: JsonValue): JsonObject {
  return path
    .split('.')
    .reverse()
    .reduce<JsonValue>((inner, key) => define({}, key, inner), value) as JsonObject;
}

/**
 * `over` merged into `base`: objects merge key by key, anything else
 * (arrays included) replaces.
 */
export function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(base)) define(out, key, value);
  for (const [key, value] of Object.entries(over)) {
    const current = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    define(out, key, isJsonObject(current) && isJsonObject(value) ? deepMerge(current, value) : value);
  }
  return out;
}

// defineProperty: a `__proto__` key of user data stays a plain key.
function define(target: Record<string, JsonValue>, key: string, value: JsonValue): Record<string, JsonValue> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
