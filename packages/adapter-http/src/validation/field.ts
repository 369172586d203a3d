import { FieldErrors } from '@voiceplane/domain';
import { Transform, TransformFnParams, Type } from 'class-transformer';
import { IsDefined, ValidateIf, ValidationOptions } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { BoundOptions, Common, Ctor, RuleName } from './field-spec';
import { Kind, messageOf } from './messages';

/**
 * How one field is declared: a composition of one `@Transform` doing the coercion, the
 * presence rules, then the class-validator constraints of its kind in the order the catalogue
 * reports them, whose `message` functions give the texts.
 */

/** Bodies of partial updates: nothing is required and `null` on a non-nullable field is an error. */
export const partialBodies = new WeakSet<object>();
/** The condition that makes `null` a value on nullable fields; openapi/dto-schemas.ts reads it as `type: [t, 'null']`. */
export const acceptsNull = (_object: object, value: unknown): boolean => value !== null;
export const REQUIRED = { rule: 'required' } as const;
/** The class-validator group of rules that only partial updates run (options.ts). */
export const PARTIAL_ONLY = 'partial-only';
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

export type Coerce = (raw: unknown, params: TransformFnParams) => unknown;
/** Validation options of a rule: its catalogue message, or the variant of a list's items (`each`, DETAILED). */
export type Say = (rule: RuleName, vars?: Record<string, number>) => ValidationOptions;
// class-transformer's decorators take `key: string`, class-validator's `string | symbol`.
export type Decorator = (target: object, key: string) => void;

export function compose(decorators: Decorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, String(key)));
}

export const catalogue =
  (kind: Kind, o: Common): Say =>
  (rule, vars) => ({ message: messageOf(kind, rule, o.messages, vars) });

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
    rules.push(
      IsDefined({
        validateIf: (body: object, value: unknown) => (partialBodies.has(body) ? value === null : o.required === true),
        message: (args) => (partialBodies.has(args.object) ? filled : required)(),
        // A field that is not required can only fail on a partial update: create bodies skip the rule.
        ...(o.required ? { context: REQUIRED } : { groups: [PARTIAL_ONLY] }),
      }),
    );
  }
  return rules;
}

/**
 * The class-transformer conversion a coercion starts from. A nested DTO is converted by
 * class-transformer (the coercion reads `params.value`); every other coercion reads the sent value
 * itself, so the conversion class-transformer would otherwise do first (copying objects and
 * arrays item by item) is made its cheapest one, to a boolean nobody reads.
 */
function conversion(nested: (() => Ctor) | undefined): Decorator {
  return Type(nested ?? (() => Boolean));
}

/** `nested`: the DTO class-transformer converts the value (or its items) into before `coerce` runs. */
export function field(
  kind: Kind,
  o: Common,
  coerce: Coerce,
  rules: (say: Say) => Decorator[],
  nested?: () => Ctor,
): PropertyDecorator {
  const docs = {
    ...(o.description ? { description: o.description } : {}),
    ...(o.example !== undefined ? { examples: [o.example] } : {}),
  };
  const say = catalogue(kind, o);
  return compose([
    conversion(nested),
    Transform((params) => coerce(params.obj[params.key], params)),
    ...presence(o, say),
    ...rules(say),
    ...(Object.keys(docs).length ? [JSONSchema(docs)] : []),
  ]);
}

type Bound = (limit: number, options: ValidationOptions) => PropertyDecorator;

/** Min/max with the catalogue's rule: `between` → one "between" message for either side. */
export function bounds(o: BoundOptions, between: boolean, say: Say, atLeast: Bound, atMost: Bound): Decorator[] {
  const vars = { min: o.min ?? 0, max: o.max ?? 0 };
  const rules: Decorator[] = [];
  if (o.min !== undefined) rules.push(atLeast(o.min, say(between ? 'between' : 'min', vars)));
  if (o.max !== undefined) rules.push(atMost(o.max, say(between ? 'between' : 'max', vars)));
  return rules;
}
