import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTestApi, TestApi } from '@voiceplane/test-env';
import { HANDLER_ERRORS } from '@voiceplane/adapter-http';
import { buildOpenApiDocument } from '@voiceplane/adapter-http';
import { documentedRoutes } from '@voiceplane/adapter-http';
import { RECORDED_EXAMPLES } from '@voiceplane/adapter-http';
import { ALIAS_ROUTES } from '@voiceplane/adapter-http';

/**
 * The document served by the composed api: valid OpenAPI 3.1, the same operations and request fields as the
 * committed surface (so a route or field cannot silently drop out of it), and error answers on every operation.
 */

type Schema = { $ref?: string; type?: unknown; properties?: Record<string, Schema>; items?: Schema };
type Operation = {
  security: Record<string, unknown>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<
    string,
    { content?: Record<string, { schema?: Schema; examples?: Record<string, { value: unknown }> }> }
  >;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const SNAPSHOT = join(__dirname, 'document-surface.snapshot.json');

/** The validator is ESM only and jest loads modules as CommonJS, so its command-line tool runs in a child process. */
function validateOpenApi(doc: Document): { valid: boolean; errors?: unknown } {
  const cli = join(
    dirname(require.resolve('@seriousme/openapi-schema-validator/package.json')),
    'bin',
    'validate-api-cli.js',
  );
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = spawnSync(process.execPath, [cli, file], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return JSON.parse(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function operationsOf(doc: Document): [string, Operation][] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}

function deref(doc: Document, schema: Schema): Schema {
  return schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
}

/** Dotted property paths of a request schema, nested schemas and array items included (`headers[].name`). */
function propertyPaths(doc: Document, schema: Schema, prefix = '', seen: string[] = []): string[] {
  if (schema.$ref && seen.includes(schema.$ref)) return [];
  const next = schema.$ref ? [...seen, schema.$ref] : seen;
  const resolved = deref(doc, schema);
  if (resolved.items) return propertyPaths(doc, resolved.items, `${prefix}[]`, next);
  return Object.entries(resolved.properties ?? {}).flatMap(([key, child]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return [path, ...propertyPaths(doc, child, path, next)];
  });
}

/** What a client generator depends on: per operation its auth, success status, query parameters and body fields. */
function surfaceOf(doc: Document) {
  return Object.fromEntries(
    operationsOf(doc)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, op]) => [
        key,
        {
          security: op.security.flatMap((s) => Object.keys(s)),
          success: Object.keys(op.responses).filter((status) => status.startsWith('2')),
          query: (op.parameters ?? [])
            .filter((p) => p.in === 'query')
            .map((p) => p.name)
            .sort(),
          body: op.requestBody ? propertyPaths(doc, op.requestBody.content['application/json'].schema).sort() : [],
        },
      ]),
  );
}

describe('GET /api/openapi.json', () => {
  let t: TestApi;
  let doc: Document;
  beforeAll(async () => {
    t = await createTestApi({ startBackground: false });
    const res = await t.http.get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => t.close());

  it('is a valid OpenAPI 3.1 document', () => {
    expect(doc).toMatchObject({ openapi: '3.1.0' });
    expect(validateOpenApi(doc)).toEqual({ valid: true });
  });

  it('lists the committed operations with the same auth, success status, query parameters and body fields', () => {
    const committed = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
    expect(surfaceOf(doc)).toEqual(committed);
  });

  it('documents at least one 4xx answer on every operation', () => {
    const without = operationsOf(doc)
      .filter(([, op]) => !Object.keys(op.responses).some((status) => /^4\d\d$/.test(status)))
      .map(([key]) => key);
    expect(without).toEqual([]);
  });

  it('gives every operation a success example and every error answer a family schema with examples', () => {
    const gaps = operationsOf(doc).flatMap(([key, op]) =>
      Object.entries(op.responses).flatMap(([status, response]) => {
        // A success that is not JSON (an event stream) is documented under its own media type.
        const media = status.startsWith('2')
          ? Object.values(response.content ?? {})[0]
          : response.content?.['application/json'];
        const hasExamples = Object.keys(media?.examples ?? {}).length > 0;
        if (status.startsWith('2')) return hasExamples ? [] : [`${key} ${status}: no example`];
        return hasExamples && media?.schema ? [] : [`${key} ${status}: no schema or example`];
      }),
    );
    expect(gaps).toEqual([]);
  });

  it('keeps no examples of operations the document does not have', () => {
    const operations = new Set(operationsOf(doc).map(([key]) => key));
    expect(Object.keys(HANDLER_ERRORS).filter((key) => !operations.has(key))).toEqual([]);
  });

  it('has a recorded success example for every operation of every configuration, and none for an operation of none', () => {
    // Some operations are served only in some configurations (the WhatsApp Cloud ingress): their suites compose those.
    const every = buildOpenApiDocument(
      'test',
      documentedRoutes(() => true),
    ) as Document;
    const operations = operationsOf(every);
    const known = new Set(operations.map(([key]) => key));
    // An alias shows the example of the operation it stands for.
    const missing = operations
      .filter(([, op]) => !('x-alias-of' in op))
      .flatMap(([key, op]) =>
        Object.keys(op.responses)
          .filter((status) => status.startsWith('2') && RECORDED_EXAMPLES[key]?.[status] === undefined)
          .map((status) => `${key} ${status}`),
      );
    expect({ missing, stale: Object.keys(RECORDED_EXAMPLES).filter((key) => !known.has(key)) }).toEqual({
      missing: [],
      stale: [],
    });
  });

  it('documents every route the pipeline lets through without a token as such: provider ingress and hooks', async () => {
    const tokenless = operationsOf(doc).filter(([key]) => / \/api\/(providers|hooks)\//.test(key));
    expect(tokenless.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        'POST /api/providers/billing/{provider}/webhook',
        'POST /api/hooks/automations/{id}/{token}',
      ]),
    );
    for (const [key, op] of tokenless) {
      expect({ key, security: op.security, has401: '401' in op.responses }).toEqual({
        key,
        security: [],
        has401: false,
      });
      const [method, path] = key.split(' ');
      const res = await t.http[method.toLowerCase() as 'post'](
        path.replace(/\{provider\}/, 'stripe').replace(/\{[^}]+\}/g, 'x'),
      )
        .set('Content-Type', 'application/json')
        .send('{}');
      expect({ key, status: res.status }).not.toEqual({ key, status: 401 });
    }
  });

  it('marks every alias as one, with the answers of the operation it stands for', () => {
    for (const alias of ALIAS_ROUTES) {
      const canonicalMethod = (alias.canonicalMethod ?? alias.method).toLowerCase();
      const op = doc.paths[alias.path]?.[alias.method.toLowerCase()] as Operation & {
        'x-alias-of'?: unknown;
        summary?: string;
      };
      expect({ alias: alias.path, marked: op?.['x-alias-of'] }).toEqual({
        alias: alias.path,
        marked: expect.objectContaining({ method: canonicalMethod, path: alias.canonicalPath }),
      });
      expect(op.summary).toMatch(/^Alias of /);
      expect(op.responses).toEqual(doc.paths[alias.canonicalPath][canonicalMethod].responses);
    }
  });

  it('answers what it documents: an unauthenticated call gets the documented 401 body', async () => {
    const documented = doc.paths['/api/user/me'].get.responses['401'].content!['application/json'].examples!.auth.value;
    const res = await t.http.get('/api/user/me');
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: documented });
  });
});
