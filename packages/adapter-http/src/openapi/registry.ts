import { Ctor, FieldSpec, fieldsOf } from '../validation';

export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/user/tools/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth?: 'user' | 'api_key' | 'admin' | 'runtime' | 'none' | 'hook';
  readonly body?: Ctor;
  readonly query?: Ctor;
  readonly success?: number;
}

const routes: RouteDoc[] = [];

/** Controllers describe their routes next to the handlers; the document is built from these. */
export function documentRoute(doc: RouteDoc): void {
  routes.push(doc);
}

type Schema = Record<string, unknown>;

function fieldSchema(spec: FieldSpec, components: Record<string, Schema>): Schema {
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

function schemaFor(dto: Ctor, components: Record<string, Schema>): string {
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

const SECURITY: Record<string, unknown[]> = {
  user: [{ bearer: [] }], api_key: [{ bearer: [] }], admin: [{ admin: [] }], runtime: [{ runtime: [] }], none: [], hook: [],
};

export function buildOpenApiDocument(version: string): Schema {
  const components: Record<string, Schema> = {};
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Schema = { summary: r.summary, tags: [r.tag], security: SECURITY[r.auth ?? 'user'] };
    const params = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (r.query) {
      for (const [key, spec] of fieldsOf(r.query)) params.push({ name: key, in: 'query', required: !!spec.required, schema: fieldSchema(spec, components) as { type: string } });
    }
    if (params.length) op.parameters = params;
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaFor(r.body, components)}` } } } };
    op.responses = { [String(r.success ?? 200)]: { description: 'Success', content: { 'application/json': {} } } };
    (paths[path] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'voiceplane API', version, description: 'Control plane for voice-AI assistants. See CONTRACT.md for every status and error body.' },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (vp_…) or session token (vps_…)' },
        admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        runtime: { type: 'http', scheme: 'bearer', description: 'RUNTIME_TOKEN' },
      },
    },
  };
}
