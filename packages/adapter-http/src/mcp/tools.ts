import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Schema } from '../openapi/dto-schemas';
import { toolNameOf } from './tool-names';

/** One tool and what it takes to call its operation through the app. */
export interface ToolOperation {
  readonly tool: Tool;
  readonly method: string;
  /** Document path (`/api/user/tools/{id}`). */
  readonly path: string;
  readonly pathParameters: readonly string[];
  readonly queryParameters: readonly string[];
  readonly hasBody: boolean;
  /** The operation takes an `Idempotency-Key`: the tool takes it as `idempotency_key`. */
  readonly idempotent: boolean;
}

/** The input field that becomes the `Idempotency-Key` header, so an assistant can retry a charge safely. */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

interface Operation {
  summary?: string;
  security?: Record<string, unknown>[];
  parameters?: {
    name?: string;
    in?: string;
    required?: boolean;
    description?: string;
    schema?: Schema;
    $ref?: string;
  }[];
  requestBody?: { content?: { 'application/json'?: { schema?: Schema } } };
  responses?: Record<string, { content?: Record<string, { examples?: { success?: { value?: unknown } } }> }>;
  'x-alias-of'?: unknown;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const COMPONENT = '#/components/schemas/';

/** An answer that never ends on its own (server-sent events) cannot be a tool's result. */
const isStream = (op: Operation): boolean =>
  Object.entries(op.responses ?? {}).some(
    ([status, response]) => status.startsWith('2') && 'text/event-stream' in (response.content ?? {}),
  );

/** User operations (any user token) and, when the document has them, the sandbox controls; never aliases or streams. */
function isUserOperation(path: string, op: Operation): boolean {
  if (!/^\/api\/(user|sandbox)\//.test(path) || op['x-alias-of'] || isStream(op)) return false;
  return (op.security ?? []).some((s) => 'bearer' in s);
}

/** A schema with its component references pointing at `$defs`, and the components it reaches, transitively. */
function withDefinitions(
  schema: Schema,
  components: Record<string, Schema>,
): { schema: Schema; defs: Record<string, Schema> } {
  const defs: Record<string, Schema> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
          const name = value.slice(COMPONENT.length);
          if (!(name in defs) && components[name]) {
            defs[name] = components[name];
            visit(components[name]);
          }
        } else visit(value);
      }
    }
  };
  visit(schema);
  const rewrite = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll(`"${COMPONENT}`, '"#/$defs/'));
  return { schema: rewrite(schema), defs: rewrite(defs) };
}

/** Path, query and body fields as one object schema: what the caller of the tool fills in. */
function inputSchemaOf(path: string, op: Operation, components: Record<string, Schema>) {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) {
    const ref =
      typeof body.$ref === 'string' && body.$ref.startsWith(COMPONENT)
        ? components[body.$ref.slice(COMPONENT.length)]
        : body;
    if (ref?.properties && typeof ref.properties === 'object') {
      Object.assign(properties, ref.properties);
      for (const name of (ref.required as string[] | undefined) ?? []) required.add(name);
    }
  }
  const queryNames: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'query' || !p.name) continue;
    queryNames.push(p.name);
    properties[p.name] = { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) };
    if (p.required) required.add(p.name);
  }
  const idempotent = (op.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
  if (idempotent) {
    properties[IDEMPOTENCY_FIELD] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x20-\\x7E]+$',
      description:
        'Makes a retry safe: the same key with the same input within 24 hours answers what the first call answered, without doing it again',
    };
  }
  const pathNames = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => m[1]);
  for (const name of pathNames) {
    properties[name] = { type: ['string', 'integer'] };
    required.add(name);
  }
  const all: Schema = { type: 'object', properties };
  if (required.size) all.required = [...required];
  const { schema, defs } = withDefinitions(all, components);
  leaner(schema);
  leaner(defs);
  if (Object.keys(defs).length) schema.$defs = defs;
  return { schema: schema as Tool['inputSchema'], pathNames, queryNames, hasBody: Boolean(body), idempotent };
}

/** Longer than this, a pattern or an enum is left to the API's validation instead of repeated in every tools/list answer. */
const LEAN_PATTERN_CHARS = 200;
const LEAN_ENUM_VALUES = 50;

/**
 * Drops, in place, the few constraints that would make up much of every tools/list answer (an IPv6
 * pattern, the country codes): the field's type and description stay, and the operation still refuses
 * a value that breaks them with its 422.
 */
function leaner(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(leaner);
  if (!node || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.pattern === 'string' && o.pattern.length > LEAN_PATTERN_CHARS) delete o.pattern;
  if (Array.isArray(o.enum) && o.enum.length > LEAN_ENUM_VALUES) delete o.enum;
  Object.values(o).forEach(leaner);
}

/** A field's JSON type as the example shows it; null (or an unknown) constrains nothing. */
function loose(value: unknown): Schema {
  if (value === null || value === undefined) return {};
  const type = Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;
  return ['array', 'object', 'number', 'string', 'boolean'].includes(type) ? { type: [type, 'null'] } : {};
}

/**
 * The success answer's shape as its documented example shows it, one level deep and loose (any field may be null,
 * more fields may come), so a real answer always validates. Answers that are not objects (bare arrays) are carried
 * as `{ "items": … }`, structured content being an object.
 */
function outputSchemaOf(op: Operation): Tool['outputSchema'] {
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const example = success?.content?.['application/json']?.examples?.success?.value;
  if (Array.isArray(example)) return { type: 'object', properties: { items: { type: 'array' } }, required: ['items'] };
  if (!example || typeof example !== 'object') return { type: 'object' };
  return { type: 'object', properties: Object.fromEntries(Object.entries(example).map(([k, v]) => [k, loose(v)])) };
}

/** What the HTTP method promises: GET reads, PUT and DELETE may overwrite or remove but repeat safely, POST and PATCH create or change. */
function annotationsOf(method: string): Tool['annotations'] {
  switch (method) {
    case 'get':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'put':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    case 'delete':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
    default:
      return { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
  }
}

/** The structured content of a success answer, as its output schema describes it. */
export function structuredContentOf(body: unknown): Record<string, unknown> {
  if (Array.isArray(body)) return { items: body };
  if (body && typeof body === 'object') return body as Record<string, unknown>;
  return { value: body };
}

/** Every user operation of the OpenAPI document as a tool, in document order; names are unique. */
export function toolsFromDocument(document: object): ToolOperation[] {
  const doc = document as Document;
  const tools: ToolOperation[] = [];
  const names = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (!isUserOperation(path, op)) continue;
      const name = toolNameOf(method, path);
      if (names.has(name)) throw new Error(`Two operations would be the tool ${name}`);
      names.add(name);
      const input = inputSchemaOf(path, op, doc.components.schemas);
      const summary = op.summary ?? `${method.toUpperCase()} ${path}`;
      tools.push({
        tool: {
          name,
          title: summary,
          description: `${summary} (\`${method.toUpperCase()} ${path}\`).`,
          inputSchema: input.schema,
          outputSchema: outputSchemaOf(op),
          annotations: annotationsOf(method),
        },
        method,
        path,
        pathParameters: input.pathNames,
        queryParameters: input.queryNames,
        hasBody: input.hasBody,
        idempotent: input.idempotent,
      });
    }
  }
  return tools;
}
