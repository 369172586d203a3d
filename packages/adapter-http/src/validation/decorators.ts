import { Expose, plainToInstance, Transform, TransformFnParams, Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsString, Matches, Max, Min,
  ValidateIf, ValidateNested, ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { isPlainObject, toBoolean, toId, toNumber, TRANSFORM, trimmed } from './coercion';
import { IsEmailAddress, IsHttpUrl, IsId, MaxChars, MinChars } from './constraints';
import { BoundOptions, Common, Ctor, ItemSpec, ListOptions, StringOptions } from './field-spec';
import { Kind, messageOf } from './messages';

/**
 * The field decorators: each one is a composition of an `@Expose`, one `@Transform` doing the
 * §1.3 coercion, and class-validator constraints in the order the catalogue reports them.
 */

/** Bodies of partial updates: nothing is required and `null` on a non-nullable field is an error. */
export const partialBodies = new WeakSet<object>();
/** Holder classes of array items that are scalars; their one property is reported under the item's index. */
export const itemHolders = new WeakSet<Function>();
/** Holders whose list keeps each value once (after validation, so error indexes are the ones sent). */
export const uniqueItemHolders = new WeakSet<Function>();
/** The condition that makes `null` a value on nullable fields; openapi/dto-schemas.ts reads it as `type: [t, 'null']`. */
export const acceptsNull = (_object: object, value: unknown): boolean => value !== null;
export const REQUIRED = { rule: 'required' } as const;

type Coerce = (raw: unknown, params: TransformFnParams) => unknown;

// class-transformer's decorators take `key: string`, class-validator's `string | symbol`.
type Decorator = (target: object, key: string) => void;

function compose(decorators: Decorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, String(key)));
}

/**
 * Absent, `null` and `""` (already null after the transform): a nullable field takes null; a
 * required one needs a value on create; a partial update may not send null to a field that
 * cannot hold it. Anything else empty is skipped (`skipMissingProperties`) and later dropped.
 */
function presence(kind: Kind, o: Common): PropertyDecorator[] {
  const rules: PropertyDecorator[] = [];
  if (o.nullable) rules.push(ValidateIf(acceptsNull));
  if (o.required) rules.push(IsDefined({ message: messageOf(kind, 'required', o.messages), validateIf: (body: object) => !partialBodies.has(body), context: REQUIRED }));
  if (!o.nullable) rules.push(IsDefined({ message: messageOf(kind, 'filled', o.messages), validateIf: (body: object, value: unknown) => value === null && partialBodies.has(body) }));
  return rules;
}

function field(kind: Kind, o: Common, coerce: Coerce, rules: Decorator[]): PropertyDecorator {
  const docs = { ...(o.description ? { description: o.description } : {}), ...(o.example !== undefined ? { examples: [o.example] } : {}) };
  return compose([
    Expose(),
    Transform((params) => coerce(params.obj[params.key], params)),
    ...presence(kind, o),
    ...rules,
    ...(Object.keys(docs).length ? [JSONSchema(docs)] : []),
  ]);
}

/** Min/max with the catalogue's rule: both bounds given → one "between" message for either side. */
type Bound = (limit: number, options: ValidationOptions) => PropertyDecorator;

function bounds(kind: Kind, o: BoundOptions, between: boolean, atLeast: Bound, atMost: Bound): PropertyDecorator[] {
  const vars = { min: o.min ?? 0, max: o.max ?? 0 };
  const rules: PropertyDecorator[] = [];
  if (o.min !== undefined) rules.push(atLeast(o.min, { message: messageOf(kind, between ? 'between' : 'min', o.messages, vars) }));
  if (o.max !== undefined) rules.push(atMost(o.max, { message: messageOf(kind, between ? 'between' : 'max', o.messages, vars) }));
  return rules;
}

export const Str = (o: StringOptions = {}) => {
  const between = o.min !== undefined && o.max !== undefined && o.min > 1;
  const upper = o.upper === true;
  return field('string', o, (raw) => {
    const value = trimmed(raw, o.trim !== false);
    return upper && typeof value === 'string' ? value.toUpperCase() : value;
  }, [
    IsString({ message: messageOf('string', 'type', o.messages) }),
    ...bounds('string', o, between, MinChars, MaxChars),
    ...(o.enum ? [IsIn([...o.enum], { message: messageOf('string', 'in', o.messages) })] : []),
    ...(o.pattern ? [Matches(o.pattern, { message: messageOf('string', 'pattern', o.messages) })] : []),
    ...(o.email ? [IsEmailAddress({ message: messageOf('string', 'email', o.messages) })] : []),
    ...(o.url ? [IsHttpUrl({ message: messageOf('string', 'url', o.messages) })] : []),
  ]);
};

const number = (kind: 'integer' | 'number', o: BoundOptions) => field(kind, o, (raw) => toNumber(trimmed(raw)), [
  kind === 'integer'
    ? IsInt({ message: messageOf(kind, 'type', o.messages) })
    // Infinity only comes from a numeric string such as "1e999", which §1.3 accepts as a number.
    : IsNumber({ allowNaN: false, allowInfinity: true }, { message: messageOf(kind, 'type', o.messages) }),
  ...bounds(kind, o, o.min !== undefined && o.max !== undefined, Min, Max),
]);

export const Int = (o: BoundOptions = {}) => number('integer', o);
export const Num = (o: BoundOptions = {}) => number('number', o);
export const Bool = (o: Common = {}) => field('boolean', o, (raw) => toBoolean(trimmed(raw)), [IsBoolean({ message: messageOf('boolean', 'type', o.messages) })]);
/** Positive integer id; a string of digits is accepted. */
export const Id = (o: Common = {}) => field('id', o, (raw) => toId(trimmed(raw)), [IsId({ message: messageOf('id', 'type', o.messages) })]);
export const Obj = (o: Common = {}) => field('object', o, (raw) => trimmed(raw), [IsObject({ message: messageOf('object', 'type', o.messages) })]);

function list(o: ListOptions, extra: Decorator[], coerce: Coerce): PropertyDecorator {
  return field('array', o, coerce, [
    IsArray({ message: messageOf('array', 'type', o.messages) }),
    ...(o.max !== undefined ? [ArrayMaxSize(o.max, { message: messageOf('array', 'max', o.messages, { max: o.max }) })] : []),
    ...(o.min !== undefined ? [ArrayMinSize(o.min, { message: messageOf('array', 'min', o.messages, { min: o.min }) })] : []),
    ...extra,
  ]);
}

const itemNotObject = messageOf('object', 'type', undefined);
/** Stands in for an item that is not an object: class-validator skips null items and walks into arrays. */
const NOT_AN_OBJECT = Symbol('not an object');

/** A scalar item is validated as the single property of a holder object, so errors carry its index. */
function holderOf(item: ItemSpec, unique: boolean): Ctor<{ value: unknown }> {
  class Item {
    value: unknown;
  }
  (item.kind === 'id' ? Id : Str)({ ...item, required: true })(Item.prototype, 'value');
  itemHolders.add(Item);
  if (unique) uniqueItemHolders.add(Item);
  return Item;
}

function scalarItems(item: ItemSpec, unique: boolean): { nested: PropertyDecorator; coerce: Coerce } {
  const Holder = holderOf(item, unique);
  return {
    nested: ValidateNested({ message: itemNotObject, context: { items: Holder } }),
    coerce: (raw) => {
      const value = trimmed(raw);
      return Array.isArray(value) ? value.map((v) => plainToInstance(Holder, { value: v }, TRANSFORM)) : value;
    },
  };
}

/** Array; `items` is a DTO class (each item an object checked against it), a scalar item spec, or nothing. */
export const Arr = (items: Ctor | ItemSpec | undefined, o: ListOptions = {}): PropertyDecorator => {
  if (items === undefined) return list(o, [], (raw) => trimmed(raw));
  if (typeof items === 'function') {
    return list(o, [ValidateNested({ message: itemNotObject, context: { items } }), Type(() => items)], (raw, { value }) => {
      if (!Array.isArray(value)) return trimmed(raw);
      return value.map((item, i) => (item instanceof items && isPlainObject((raw as unknown[])[i]) ? item : NOT_AN_OBJECT));
    });
  }
  const { nested, coerce } = scalarItems(items, false);
  return list(o, [nested], coerce);
};

/** Array of ids; duplicates are removed. */
export const Ids = (o: ListOptions = {}): PropertyDecorator => {
  const { nested, coerce } = scalarItems({ kind: 'id' }, true);
  return list(o, [nested], coerce);
};
