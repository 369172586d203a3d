import { fieldsOf } from '../validation';
import { fieldSchema, Schema, schemaFor } from './field-schemas';
import type { RouteDoc } from './route-doc';

const SECURITY: Record<string, unknown[]> = {
  user: [{ bearer: [] }], api_key: [{ bearer: [] }], admin: [{ admin: [] }], runtime: [{ runtime: [] }], none: [], hook: [],
};

export function buildOpenApiDocument(version: string, routes: readonly RouteDoc[]): Schema {
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
