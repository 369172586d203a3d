import { FieldErrors } from '@voiceplane/domain';
import { plainToInstance } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, ValidateNested, validateSync } from 'class-validator';
import { isPlainObject, trimmed } from './coercion';
import { idCoercion, idRules, stringCoercion, stringRules } from './decorators';
import { catalogue, Coerce, compose, Decorator, Detailed, DETAILED, field, Say } from './field';
import { Ctor, ItemChoice, ItemSpec, ListOptions } from './field-spec';
import { displayName, fill, messageOf } from './messages';
import { TRANSFORM, VALIDATE } from './options';

/** Array fields: of DTO objects, of objects whose DTO depends on the item, or of scalars. */

function list(
  o: ListOptions,
  items: (say: Say) => Decorator[],
  coerce: Coerce,
  nested?: () => Ctor,
): PropertyDecorator {
  return field(
    'array',
    o,
    coerce,
    (say) => [
      IsArray(say('type')),
      ...(o.max !== undefined ? [ArrayMaxSize(o.max, say('max', { max: o.max }))] : []),
      ...(o.min !== undefined ? [ArrayMinSize(o.min, say('min', { min: o.min }))] : []),
      ...items(say),
    ],
    nested,
  );
}

/** Stands in for an item that is not an object: class-validator skips null items and walks into arrays. */
const NOT_AN_OBJECT = Symbol('not an object');

function objectItems(items: Ctor, o: ListOptions): PropertyDecorator {
  const notObject = { message: messageOf('object', 'type', undefined) };
  return list(
    o,
    () => [ValidateNested({ ...notObject, context: { items } })],
    (raw, { value }) => {
      if (!Array.isArray(value)) return trimmed(raw);
      return value.map((item, i) =>
        item instanceof items && isPlainObject((raw as unknown[])[i]) ? item : NOT_AN_OBJECT,
      );
    },
    () => items,
  );
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
  const each: Say = () => ({
    each: true,
    message: DETAILED,
    context,
    validateIf: (_body: object, value: unknown) => Array.isArray(value),
  });
  return list(
    o,
    () => [IsDefined(each('required')), ...rules(each)],
    (raw) => {
      const value = trimmed(raw);
      return Array.isArray(value) ? value.map((v) => coerce(v)) : value;
    },
  );
}

function chosenItems(items: ItemChoice, o: ListOptions): PropertyDecorator {
  const notObject = { message: messageOf('object', 'type', undefined) };
  return list(
    o,
    () => [ValidateNested(notObject)],
    (raw) => {
      const value = trimmed(raw);
      if (!Array.isArray(value)) return value;
      return value.map((item: unknown) => {
        if (!isPlainObject(item)) return NOT_AN_OBJECT;
        const { dto, fields } = items.choose(item);
        return plainToInstance(dto, fields, TRANSFORM);
      });
    },
  );
}

/**
 * Array; `items` is a DTO class (each item an object checked against it), a choice of DTOs per
 * item, a scalar item spec, or nothing.
 */
export const Arr = (items: Ctor | ItemChoice | ItemSpec | undefined, o: ListOptions = {}): PropertyDecorator => {
  if (items === undefined)
    return list(
      o,
      () => [],
      (raw) => trimmed(raw),
    );
  if (typeof items === 'function') return objectItems(items, o);
  if ('choose' in items) return chosenItems(items, o);
  return scalarItems(items, o, false);
};

/** Array of ids; duplicates are removed. */
export const Ids = (o: ListOptions = {}): PropertyDecorator => scalarItems({ kind: 'id' }, o, true);
