import { FieldErrors } from '@voiceplane/domain';
import { plainToInstance, Transform, TransformFnParams, Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsString, Matches, Max, Min, NotEquals,
  ValidateIf, ValidateNested, ValidationOptions, validateSync,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { isPlainObject, toBoolean, toId, toNumber, trimmed } from './coercion';
import { AllowedTarget, HasValidEntries, IsEmailAddress, IsHttpUrl, IsId, IsKnown, IsMoney, IsTimestamp, MaxChars, MinChars } from './constraints';
import { BoundOptions, Common, Ctor, ItemChoice, ItemSpec, ListOptions, NumberOptions, ObjectOptions, RuleName, StringOptions } from './field-spec';
import { displayName, fill, Kind, messageOf } from './messages';
import { TRANSFORM, VALIDATE } from './options';

/**
 * The field decorators: each one is a composition of one `@Transform` doing the §1.3 coercion
 * and class-validator constraints, in the order the catalogue reports them, whose `message`
 * functions give the §1.6 texts.
 */

/** Bodies of partial updates: nothing is required and `null` on a non-nullable field is an error. */
export const partialBodies = new WeakSet<object>();
/** The condition that makes `null` a value on nullable fields; openapi/dto-schemas.ts reads it as `type: [t, 'null']`. */
export const acceptsNull = (_object: object, value: unknown): boolean => value !== null;
export const REQUIRED = { rule: 'required' } as const;
/**
 * Message of a constraint whose failure is reported under the keys of the parts that failed
 * (scalar items checked in one pass, map entries): error-keys.ts asks its `Detailed` context.
 */
export const DETAILED = '\u0000detailed';

export interface Detailed {
  /** The errors of the failing parts of `value`, the field being at `key`. */
  readonly details: (value: unknown, key: string) => FieldErrors;
  /** Lists of ids keep each value once. */
  readonly unique?: boolean;
}

type Coerce = (raw: unknown, params: TransformFnParams) => unknown;
/** Validation options of a rule: its catalogue message, or the item variant (`each`, ITEM_FAILED). */
type Say = (rule: RuleName, vars?: Record<string, number>) => ValidationOptions;
// class-transformer's decorators take `key: string`, class-validator's `string | symbol`.
type Decorator = (target: object, key: string) => void;

function compose(decorators: Decorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, String(key)));
}

const catalogue = (kind: Kind, o: Common): Say => (rule, vars) => ({ message: messageOf(kind, rule, o.messages, vars) });

/**
 * Absent, `null` and `""` (already null after the transform): a nullable field takes null; a
 * required one needs a value on create; a partial update may not send null to a field that
 * cannot hold it. Anything else empty is skipped (`skipMissingProperties`) and later dropped.
 */
function presence(o: Common, say: Say): Decorator[] {
  const rules: Decorator[] = [];
  if (o.nullable) rules.push(ValidateIf(acceptsNull));
  if (o.required || !o.nullable) {
    const required = say('required').message as () => string;
    const filled = say('filled').message as () => string;
    rules.push(IsDefined({
      validateIf: (body: object, value: unknown) => (partialBodies.has(body) ? value === null : o.required === true),
      message: (args) => (partialBodies.has(args.object) ? filled : required)(),
      ...(o.required ? { context: REQUIRED } : {}),
    }));
  }
  return rules;
}

function field(kind: Kind, o: Common, coerce: Coerce, rules: (say: Say) => Decorator[]): PropertyDecorator {
  const docs = { ...(o.description ? { description: o.description } : {}), ...(o.example !== undefined ? { examples: [o.example] } : {}) };
  const say = catalogue(kind, o);
  return compose([
    Transform((params) => coerce(params.obj[params.key], params)),
    ...presence(o, say),
    ...rules(say),
    ...(Object.keys(docs).length ? [JSONSchema(docs)] : []),
  ]);
}

type Bound = (limit: number, options: ValidationOptions) => PropertyDecorator;

/** Min/max with the catalogue's rule: `between` → one "between" message for either side. */
function bounds(o: BoundOptions, between: boolean, say: Say, atLeast: Bound, atMost: Bound): Decorator[] {
  const vars = { min: o.min ?? 0, max: o.max ?? 0 };
  const rules: Decorator[] = [];
  if (o.min !== undefined) rules.push(atLeast(o.min, say(between ? 'between' : 'min', vars)));
  if (o.max !== undefined) rules.push(atMost(o.max, say(between ? 'between' : 'max', vars)));
  return rules;
}

function stringCoercion(o: StringOptions): (raw: unknown) => unknown {
  return (raw) => {
    const value = trimmed(raw, o.trim !== false);
    if (typeof value !== 'string') return value;
    if (o.upper) return value.toUpperCase();
    return o.canonical?.(value) ?? value;
  };
}

function stringRules(o: StringOptions, say: Say): Decorator[] {
  return [
    IsString(say('type')),
    ...bounds(o, o.min !== undefined && o.max !== undefined && o.min > 1, say, MinChars, MaxChars),
    ...(o.enum ? [IsIn([...o.enum], say('in'))] : []),
    ...(o.canonical ? [IsKnown(o.canonical, say('in'))] : []),
    ...(o.pattern ? [Matches(o.pattern, say('pattern'))] : []),
    ...(o.email ? [IsEmailAddress(say('email'))] : []),
    ...(o.url ? [IsHttpUrl(say('url'))] : []),
    ...(o.timestamp ? [IsTimestamp(say('date'))] : []),
    ...(o.target ? [AllowedTarget(o.target)] : []),
  ];
}

const idCoercion = (raw: unknown) => toId(trimmed(raw));
const idRules = (say: Say): Decorator[] => [IsId(say('type'))];

export const Str = (o: StringOptions = {}) => field('string', o, stringCoercion(o), (say) => stringRules(o, say));

const number = (kind: 'integer' | 'number', o: NumberOptions) => field(kind, o, (raw) => toNumber(trimmed(raw)), (say) => [
  kind === 'integer'
    ? IsInt(say('type'))
    // Infinity only comes from a numeric string such as "1e999", which §1.3 accepts as a number.
    : IsNumber({ allowNaN: false, allowInfinity: true }, say('type')),
  ...bounds(o, o.min !== undefined && o.max !== undefined, say, Min, Max),
  ...(o.nonZero ? [NotEquals(0, say('nonZero'))] : []),
  ...(o.money ? [IsMoney(say('money'))] : []),
]);

export const Int = (o: BoundOptions = {}) => number('integer', o);
export const Num = (o: NumberOptions = {}) => number('number', o);
export const Bool = (o: Common = {}) => field('boolean', o, (raw) => toBoolean(trimmed(raw)), (say) => [IsBoolean(say('type'))]);
/** Positive integer id; a string of digits is accepted. */
export const Id = (o: Common = {}) => field('id', o, idCoercion, idRules);
export const Obj = (o: ObjectOptions = {}) => {
  const { shape, entries } = o;
  if (shape) return field('object', o, (raw, { value }) => (isPlainObject(raw) ? value : trimmed(raw)), (say) => [IsObject(say('type')), ValidateNested(), Type(() => shape)]);
  if (entries) {
    const details: Detailed = { details: (value) => (entries(value as Record<string, unknown>) as { error: FieldErrors }).error };
    return field('object', o, (raw) => {
      const normalized = isPlainObject(raw) ? entries(raw) : undefined;
      return normalized?.ok ? normalized.value : trimmed(raw);
    }, (say) => [IsObject(say('type')), HasValidEntries(entries, { message: DETAILED, context: details })]);
  }
  return field('object', o, (raw) => trimmed(raw), (say) => [IsObject(say('type'))]);
};

function list(o: ListOptions, items: (say: Say) => Decorator[], coerce: Coerce): PropertyDecorator {
  return field('array', o, coerce, (say) => [
    IsArray(say('type')),
    ...(o.max !== undefined ? [ArrayMaxSize(o.max, say('max', { max: o.max }))] : []),
    ...(o.min !== undefined ? [ArrayMinSize(o.min, say('min', { min: o.min }))] : []),
    ...items(say),
  ]);
}

/** Stands in for an item that is not an object: class-validator skips null items and walks into arrays. */
const NOT_AN_OBJECT = Symbol('not an object');

function objectItems(items: Ctor, o: ListOptions): PropertyDecorator {
  const notObject = { message: messageOf('object', 'type', undefined) };
  return list(o, () => [ValidateNested({ ...notObject, context: { items } }), Type(() => items)], (raw, { value }) => {
    if (!Array.isArray(value)) return trimmed(raw);
    return value.map((item, i) => (item instanceof items && isPlainObject((raw as unknown[])[i]) ? item : NOT_AN_OBJECT));
  });
}

/** Each failing item under `key.i`, with the message its holder's constraints give. */
function itemDetails(holder: Ctor<{ value: unknown }>): Detailed['details'] {
  return (items, key) => {
    const errors: FieldErrors = {};
    (items as unknown[]).forEach((value, i) => {
      const [problem] = validateSync(Object.assign(new holder(), { value }), VALIDATE);
      const message = problem?.constraints && Object.values(problem.constraints)[0];
      if (message) errors[`${key}.${i}`] = [fill(message, { field: displayName(`${key}.${i}`) })];
    });
    return errors;
  };
}

/**
 * Scalar items are coerced by the array's transform and checked in one pass by `each: true`
 * constraints; the same constraints on a holder class's single property name the failing items.
 */
function scalarItems(item: ItemSpec, o: ListOptions, unique: boolean): PropertyDecorator {
  const coerce = item.kind === 'id' ? idCoercion : stringCoercion(item);
  const rules = (say: Say) => (item.kind === 'id' ? idRules(say) : stringRules(item, say));
  class Item {
    value: unknown;
  }
  const itemSay = catalogue(item.kind, item);
  compose([IsDefined(itemSay('required')), ...rules(itemSay)])(Item.prototype, 'value');
  const context: Detailed = { details: itemDetails(Item), unique };
  // IsDefined runs whatever the value: only a list has items to check.
  const each: Say = () => ({ each: true, message: DETAILED, context, validateIf: (_body: object, value: unknown) => Array.isArray(value) });
  return list(o, () => [IsDefined(each('required')), ...rules(each)], (raw) => {
    const value = trimmed(raw);
    return Array.isArray(value) ? value.map((v) => coerce(v)) : value;
  });
}

function chosenItems(items: ItemChoice, o: ListOptions): PropertyDecorator {
  const notObject = { message: messageOf('object', 'type', undefined) };
  return list(o, () => [ValidateNested(notObject)], (raw) => {
    const value = trimmed(raw);
    if (!Array.isArray(value)) return value;
    return value.map((item: unknown) => {
      if (!isPlainObject(item)) return NOT_AN_OBJECT;
      const { dto, fields } = items.choose(item);
      return plainToInstance(dto, fields, TRANSFORM);
    });
  });
}

/**
 * Array; `items` is a DTO class (each item an object checked against it), a choice of DTOs per
 * item, a scalar item spec, or nothing.
 */
export const Arr = (items: Ctor | ItemChoice | ItemSpec | undefined, o: ListOptions = {}): PropertyDecorator => {
  if (items === undefined) return list(o, () => [], (raw) => trimmed(raw));
  if (typeof items === 'function') return objectItems(items, o);
  if ('choose' in items) return chosenItems(items, o);
  return scalarItems(items, o, false);
};

/** Array of ids; duplicates are removed. */
export const Ids = (o: ListOptions = {}): PropertyDecorator => scalarItems({ kind: 'id' }, o, true);
