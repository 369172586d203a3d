import { Ctor, FieldSpec, fieldsOf } from '../validation';

export type Schema = Record<string, unknown>;

export function fieldSchema(spec: FieldSpec, components: Record<string, Schema>): Schema {
  const s: Schema = {};
  switch (spec.kind) {
    case 'string':
      s.type = 'string';
      if (spec.min !== undefined) s.minLength = spec.min;
      if (spec.max !== undefined) s.maxLength = spec.max;
      if (spec.enum) s.enum = [...spec.enum];
      if (spec.pattern) s.pattern = spec.pattern.source;
      if (spec.email) s.format = 'email';
      if (spec.url) s.format = 'uri';
      break;
    case 'integer':
    case 'number':
      s.type = spec.kind;
      if (spec.min !== undefined) s.minimum = spec.min;
      if (spec.max !== undefined) s.maximum = spec.max;
      break;
    case 'boolean':
      s.type = 'boolean';
      break;
    case 'id':
      s.type = 'integer';
      s.minimum = 1;
      break;
    case 'ids':
      s.type = 'array';
      s.items = { type: 'integer', minimum: 1 };
      if (spec.max !== undefined) s.maxItems = spec.max;
      break;
    case 'object':
      s.type = 'object';
      break;
    case 'array':
      s.type = 'array';
      if (spec.max !== undefined) s.maxItems = spec.max;
      if (typeof spec.items === 'function') s.items = { $ref: `#/components/schemas/${schemaFor(spec.items, components)}` };
      else if (spec.items) s.items = fieldSchema(spec.items, components);
      break;
    case 'any':
      break;
  }
  if (spec.nullable && typeof s.type === 'string') s.type = [s.type, 'null'];
  if (spec.description) s.description = spec.description;
  if (spec.example !== undefined) s.examples = [spec.example];
  return s;
}

export function schemaFor(dto: Ctor, components: Record<string, Schema>): string {
  const name = dto.name;
  if (components[name]) return name;
  components[name] = {};
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [key, spec] of fieldsOf(dto)) {
    properties[key] = fieldSchema(spec, components);
    if (spec.required) required.push(key);
  }
  components[name] = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return name;
}
