import { err, ok, Result } from '../common/result';
import { isJsonObject, JsonObject, JsonValue } from './json';

/**
 * `{{path}}` expressions. A path starts at `trigger`, `call` (short for
 * `trigger.call`) or `steps.<step name>.output`, then names object keys or array indexes with
 * dots. Resolution only walks own keys of plain JSON data: nothing is executed and no prototype
 * is reachable.
 */
export const EXPRESSION_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const LONE_EXPRESSION = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** Names that mean something to JavaScript objects: never resolved, even when the data holds them. */
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Where a path points: the trigger input, or the output of a named step. */
export type PathRoot = { readonly kind: 'trigger' } | { readonly kind: 'step'; readonly step: string };
export interface ExpressionPath {
  readonly root: PathRoot;
  /** Keys below the root (`call.` already expanded to `call` under the trigger). */
  readonly segments: readonly string[];
}

export type ExpressionProblem = { readonly code: 'invalid_expression'; readonly path: string };

export function parseExpressionPath(path: string): Result<ExpressionPath, ExpressionProblem> {
  const parts = path.split('.');
  const invalid = err<ExpressionProblem>({ code: 'invalid_expression', path });
  if (parts.some((p) => !SEGMENT.test(p))) return invalid;
  if (parts[0] === 'trigger') return ok({ root: { kind: 'trigger' }, segments: parts.slice(1) });
  if (parts[0] === 'call') return ok({ root: { kind: 'trigger' }, segments: parts });
  if (parts[0] === 'steps' && parts.length >= 3 && parts[2] === 'output')
    return ok({ root: { kind: 'step', step: parts[1] }, segments: parts.slice(3) });
  return invalid;
}

/** Every expression path written in a configuration value, in document order. */
export function expressionsIn(value: JsonValue): string[] {
  if (typeof value === 'string') return Array.from(value.matchAll(EXPRESSION_PATTERN), (m) => m[1]);
  if (Array.isArray(value)) return value.flatMap(expressionsIn);
  if (isJsonObject(value)) return Object.values(value).flatMap(expressionsIn);
  return [];
}

/** What expressions resolve against: the run's input and the outputs of the steps that ran. */
export interface ExpressionContext {
  readonly trigger: JsonValue;
  readonly steps: { readonly [stepName: string]: { readonly output: JsonValue } };
}

/** A path that does not resolve (or cannot be read): the step fails with `wiring_error`. */
export type WiringError = { readonly code: 'wiring_error'; readonly path: string };

/** The value at `path`, or undefined when it does not exist. */
function lookupPath(path: string, context: ExpressionContext): JsonValue | undefined {
  const parsed = parseExpressionPath(path);
  if (!parsed.ok) return undefined;
  const { root, segments } = parsed.value;
  let current: JsonValue | undefined;
  if (root.kind === 'trigger') current = context.trigger;
  else
    current = Object.prototype.hasOwnProperty.call(context.steps, root.step)
      ? context.steps[root.step].output
      : undefined;
  for (const segment of segments) {
    if (current === undefined || FORBIDDEN_SEGMENTS.has(segment)) return undefined;
    current = child(current, segment);
  }
  return current;
}

function child(value: JsonValue, key: string): JsonValue | undefined {
  if (Array.isArray(value)) return /^\d+$/.test(key) && Number(key) < value.length ? value[Number(key)] : undefined;
  if (isJsonObject(value) && Object.prototype.hasOwnProperty.call(value, key)) return value[key];
  return undefined;
}

/**
 * Resolves every expression inside a configuration value. A string that is exactly one expression
 * takes the referenced JSON value; expressions inside longer text are inserted as text. Object keys
 * are never evaluated. The first path that does not resolve, in document order, is the error.
 */
export function evaluateExpressions(value: JsonValue, context: ExpressionContext): Result<JsonValue, WiringError> {
  if (typeof value === 'string') return evaluateString(value, context);
  if (Array.isArray(value)) {
    const items: JsonValue[] = [];
    for (const item of value) {
      const r = evaluateExpressions(item, context);
      if (!r.ok) return r;
      items.push(r.value);
    }
    return ok(items);
  }
  if (isJsonObject(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      const r = evaluateExpressions(item, context);
      if (!r.ok) return r;
      // defineProperty: a `__proto__` key of the data stays a plain key of the copy.
      Object.defineProperty(out, key, { value: r.value, enumerable: true, writable: true, configurable: true });
    }
    return ok(out as JsonObject);
  }
  return ok(value);
}

function evaluateString(text: string, context: ExpressionContext): Result<JsonValue, WiringError> {
  const lone = LONE_EXPRESSION.exec(text);
  if (lone) {
    const found = lookupPath(lone[1], context);
    return found === undefined ? err({ code: 'wiring_error', path: lone[1] }) : ok(found);
  }
  const missing: string[] = [];
  const out = text.replace(EXPRESSION_PATTERN, (_whole: string, path: string) => {
    const found = lookupPath(path, context);
    if (found === undefined) missing.push(path);
    return found === undefined ? '' : asText(found);
  });
  return missing.length === 0 ? ok(out) : err({ code: 'wiring_error', path: missing[0] });
}

/** How a value reads inside text: strings as they are, null as nothing, anything else as JSON. */
export function asText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return JSON.stringify(value);
}
