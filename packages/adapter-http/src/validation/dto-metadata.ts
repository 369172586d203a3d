import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { acceptsNull, Detailed, REQUIRED } from './field';

export interface DeclaredFields {
  /** Property → position, base class first, each class in declaration order (the order errors are reported in). */
  readonly order: ReadonlyMap<string, number>;
  readonly nullable: ReadonlySet<string>;
  /** Required on create. */
  readonly required: ReadonlySet<string>;
  /** Lists that keep each value once. */
  readonly unique: ReadonlySet<string>;
}

const cache = new WeakMap<Function, DeclaredFields>();

/** What the class-validator metadata says about a DTO's fields, read once per class. */
export function declaredFields(dto: Function): DeclaredFields {
  let fields = cache.get(dto);
  if (fields) return fields;
  const chain: Function[] = [];
  for (let c = dto; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.unshift(c);
  const storage = getMetadataStorage();
  const order = new Map<string, number>();
  const nullable = new Set<string>();
  const required = new Set<string>();
  const unique = new Set<string>();
  for (const c of chain) {
    for (const m of storage.getTargetValidationMetadatas(c, '', true, false)) {
      if (m.target !== c) continue;
      if (!order.has(m.propertyName)) order.set(m.propertyName, order.size);
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION && m.constraints[0] === acceptsNull)
        nullable.add(m.propertyName);
      if (m.type === ValidationTypes.IS_DEFINED && m.context === REQUIRED) required.add(m.propertyName);
      if ((m.context as Detailed | undefined)?.unique) unique.add(m.propertyName);
    }
  }
  fields = { order, nullable, required, unique };
  cache.set(dto, fields);
  return fields;
}
