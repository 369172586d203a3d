import { FieldErrors } from '@voiceplane/domain';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Max,
  Min,
  NotEquals,
  ValidateNested,
} from 'class-validator';
import { isPlainObject, toBoolean, toId, toNumber, trimmed } from './coercion';
import {
  AllowedTarget,
  HasValidEntries,
  IsEmailAddress,
  IsHttpUrl,
  IsId,
  IsKnown,
  IsMoney,
  IsSafeInteger,
  IsTimestamp,
  MaxChars,
  MinChars,
} from './constraints';
import { bounds, Decorator, Detailed, DETAILED, field, Say } from './field';
import { BoundOptions, Common, NumberOptions, ObjectOptions, StringOptions } from './field-spec';

/** The decorators of scalar and object fields (arrays are in lists.ts). */

export function stringCoercion(o: StringOptions): (raw: unknown) => unknown {
  return (raw) => {
    const value = trimmed(raw, o.trim !== false);
    if (typeof value !== 'string') return value;
    if (o.upper) return value.toUpperCase();
    return o.canonical?.(value) ?? value;
  };
}

export function stringRules(o: StringOptions, say: Say): Decorator[] {
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

export const idCoercion = (raw: unknown) => toId(trimmed(raw));
export const idRules = (say: Say): Decorator[] => [IsId(say('type'))];

export const Str = (o: StringOptions = {}) => field('string', o, stringCoercion(o), (say) => stringRules(o, say));

const number = (kind: 'integer' | 'number', o: NumberOptions) =>
  field(
    kind,
    o,
    (raw) => toNumber(trimmed(raw)),
    (say) => [
      ...(kind === 'integer'
        ? [IsInt(say('type')), IsSafeInteger(say('type'))]
        : // Infinity only comes from a numeric string such as "1e999", which the transport accepts as a number.
          [IsNumber({ allowNaN: false, allowInfinity: true }, say('type'))]),
      ...bounds(o, o.min !== undefined && o.max !== undefined, say, Min, Max),
      ...(o.nonZero ? [NotEquals(0, say('nonZero'))] : []),
      ...(o.money ? [IsMoney(say('money'))] : []),
      ...(o.limit !== undefined ? [Max(o.limit, say('max', { max: o.limit }))] : []),
    ],
  );

export const Int = (o: BoundOptions = {}) => number('integer', o);
export const Num = (o: NumberOptions = {}) => number('number', o);
export const Bool = (o: Common = {}) =>
  field(
    'boolean',
    o,
    (raw) => toBoolean(trimmed(raw)),
    (say) => [IsBoolean(say('type'))],
  );
/** Positive integer id; a string of digits is accepted. */
export const Id = (o: Common = {}) => field('id', o, idCoercion, idRules);
export const Obj = (o: ObjectOptions = {}) => {
  const { shape, entries } = o;
  if (shape)
    return field(
      'object',
      o,
      (raw, { value }) => (isPlainObject(raw) ? value : trimmed(raw)),
      (say) => [IsObject(say('type')), ValidateNested()],
      () => shape,
    );
  if (entries) {
    const details: Detailed = {
      details: (value) => (entries(value as Record<string, unknown>) as { error: FieldErrors }).error,
    };
    return field(
      'object',
      o,
      (raw) => {
        const normalized = isPlainObject(raw) ? entries(raw) : undefined;
        return normalized?.ok ? normalized.value : trimmed(raw);
      },
      (say) => [IsObject(say('type')), HasValidEntries(entries, { message: DETAILED, context: details })],
    );
  }
  return field(
    'object',
    o,
    (raw) => trimmed(raw),
    (say) => [IsObject(say('type'))],
  );
};
