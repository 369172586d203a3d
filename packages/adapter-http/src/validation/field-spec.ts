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
