import { ToolParameter, ToolParameterType } from './tool';

export type ParameterValue = string | number | boolean;

export interface ResolvedParameters {
  /** Collected values after coercion, in schema order. */
  readonly collected: ReadonlyMap<string, ParameterValue>;
  /** Required parameters that were not collected. */
  readonly missing: readonly string[];
  /** Parameters whose value could not be coerced to the declared type. */
  readonly invalid: readonly string[];
  /** Optional parameters that were not collected. */
  readonly omitted: readonly string[];
}

/**
 * Step 1: keep only declared names, coerce by type. A parameter is collected when
 * present and not null; undeclared names are dropped without a word (the AI sometimes adds some).
 */
export function resolveParameters(
  schema: readonly ToolParameter[],
  raw: Readonly<Record<string, unknown>>,
): ResolvedParameters {
  const collected = new Map<string, ParameterValue>();
  const missing: string[] = [];
  const invalid: string[] = [];
  const omitted: string[] = [];
  for (const parameter of schema) {
    const value = Object.prototype.hasOwnProperty.call(raw, parameter.name) ? raw[parameter.name] : undefined;
    if (value === undefined || value === null) {
      (parameter.required ? missing : omitted).push(parameter.name);
      continue;
    }
    const coerced = coerceParameter(parameter.type, value);
    if (coerced === undefined) invalid.push(parameter.name);
    else collected.set(parameter.name, coerced);
  }
  return { collected, missing, invalid, omitted };
}

/** Undefined when the value cannot be read as the declared type. */
export function coerceParameter(type: ToolParameterType, value: unknown): ParameterValue | undefined {
  switch (type) {
    case 'string':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value === 'boolean') return String(value);
      return undefined;
    case 'number':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
      if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
        const n = Number(value);
        return Number.isSafeInteger(n) ? n : undefined;
      }
      return undefined;
    case 'float':
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      if (typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) {
        const n = Number(value);
        return Number.isFinite(n) ? n : undefined;
      }
      return undefined;
    case 'boolean':
      if (value === true || value === 'true' || value === 1) return true;
      if (value === false || value === 'false' || value === 0) return false;
      return undefined;
  }
}
