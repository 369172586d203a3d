import { ValidationTypes } from 'class-validator';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { Ctor, declaredFields } from '../validation';

/**
 * Schemas of request bodies and query parameters, read from the class-validator metadata the DTO
 * decorators register (class-validator-jsonschema plus converters for our own constraints), so the
 * document states exactly what validation enforces.
 */

export type Schema = Record<string, unknown>;
const REF = '#/components/schemas/';

/** Item classes met while converting; they become components of their own. */
type Pending = Ctor[];

function converters(pending: Pending) {
  const constraint = (m: ValidationMetadata) => m.constraints[0] as number;
  return {
    [ValidationTypes.IS_DEFINED]: {},
    [ValidationTypes.CONDITIONAL_VALIDATION]: {},
    [ValidationTypes.NESTED_VALIDATION]: (m: ValidationMetadata): Schema => {
      const items = (m.context as { items?: Ctor } | undefined)?.items;
      if (!items) return {};
      pending.push(items);
      return { items: { $ref: REF + items.name } };
    },
    isString: { type: 'string' },
    maxChars: (m: ValidationMetadata) => ({ maxLength: constraint(m) }),
    minChars: (m: ValidationMetadata) => ({ minLength: constraint(m) }),
    isIn: (m: ValidationMetadata) => ({ enum: [...(m.constraints[0] as unknown[])] }),
    matches: (m: ValidationMetadata) => ({ pattern: (m.constraints[0] as RegExp).source }),
    isEmailAddress: { format: 'email' },
    isHttpUrl: { format: 'uri' },
    // Time zones and outbound targets are documented in the field's description.
    isKnown: {},
    isTimestamp: {},
    hasValidEntries: {},
    isMoney: {},
    notEquals: {},
    allowedTarget: {},
    isInt: { type: 'integer' },
    isSafeInteger: {},
    isNumber: { type: 'number' },
    min: (m: ValidationMetadata) => ({ minimum: constraint(m) }),
    max: (m: ValidationMetadata) => ({ maximum: constraint(m) }),
    isBoolean: { type: 'boolean' },
    isId: { type: 'integer', minimum: 1 },
    isObject: { type: 'object' },
    isArray: { type: 'array' },
    arrayMaxSize: (m: ValidationMetadata) => ({ maxItems: constraint(m) }),
    arrayMinSize: (m: ValidationMetadata) => ({ minItems: constraint(m) }),
  };
}

interface Properties {
  readonly properties: Record<string, Schema>;
  readonly required: string[];
}

function propertiesOf(dto: Ctor, pending: Pending): Properties {
  const schema = targetConstructorToSchema(dto, { additionalConverters: converters(pending) as never }) as {
    properties?: Record<string, Schema>;
  };
  const { order, nullable, required } = declaredFields(dto);
  const properties: Record<string, Schema> = {};
  for (const key of order.keys()) {
    const property = { ...(schema.properties?.[key] ?? {}) };
    if (nullable.has(key) && typeof property.type === 'string') property.type = [property.type, 'null'];
    properties[key] = property;
  }
  return { properties, required: [...order.keys()].filter((key) => required.has(key)) };
}

/** Adds the body's schema (and those of its item classes) to `components`; returns its name. */
export function schemaFor(dto: Ctor, components: Record<string, Schema>): string {
  const pending: Pending = [dto];
  for (let next = pending.shift(); next; next = pending.shift()) {
    if (components[next.name]) continue;
    const { properties, required } = propertiesOf(next, pending);
    components[next.name] = { type: 'object', properties, ...(required.length ? { required } : {}) };
  }
  return dto.name;
}

export interface QueryParameter {
  readonly name: string;
  readonly in: 'query';
  readonly required: boolean;
  readonly schema: Schema;
}

export function queryParameters(dto: Ctor, components: Record<string, Schema>): QueryParameter[] {
  const pending: Pending = [];
  const { properties, required } = propertiesOf(dto, pending);
  for (const item of pending) schemaFor(item, components);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema,
  }));
}
