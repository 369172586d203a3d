import { queryParameters, Schema, schemaFor } from './dto-schemas';
import { API_DESCRIPTION } from './description';
import { ERROR_FAMILY_SCHEMAS } from './error-families';
import { acceptsIdempotencyKey } from './pipeline-answers';
import { operationKey, RESPONSE_HEADERS, responsesOf } from './responses';
import { authOf, type RouteDoc } from './route-doc';
import { ALIAS_ROUTES, AliasRoute } from '../pipeline/aliases';

const SECURITY: Record<string, unknown[]> = {
  user: [{ bearer: [] }],
  api_key: [{ bearer: [] }],
  admin: [{ admin: [] }],
  runtime: [{ runtime: [] }],
  none: [],
  hook: [],
};

const IDEMPOTENCY_KEY_PARAMETER: Schema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same body within 24 hours replays the stored answer (`Idempotent-Replayed: true`)',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};

/**
 * An alias is documented as the operation it stands for (same auth, body, answers and examples), marked as an
 * alias (`x-alias-of`); query values the alias fixes are not parameters of it.
 */
function aliasOperation(alias: AliasRoute, canonical: Schema): Schema {
  const target = `${alias.canonicalMethod ?? alias.method} ${alias.canonicalPath}`;
  const fixed = Object.entries(alias.query ?? {});
  const parameters = (canonical.parameters as Schema[] | undefined)?.filter(
    (p) => !(p.in === 'query' && fixed.some(([name]) => name === p.name)),
  );
  const query = fixed.map(([name, value]) => `${name}=${value}`).join('&');
  const op: Schema = {
    ...canonical,
    summary: `Alias of ${target}${query ? `?${query}` : ''}`,
    description:
      `Served by the same handler as \`${target}\`${query ? ` with \`${query}\`` : ''}: same authentication, rate limits, body and answers.` +
      (alias.usedBy ? ` Called by ${alias.usedBy}.` : ''),
    'x-alias-of': {
      method: (alias.canonicalMethod ?? alias.method).toLowerCase(),
      path: alias.canonicalPath,
      ...(fixed.length ? { query: alias.query } : {}),
    },
  };
  if (parameters?.length === 0) delete op.parameters;
  else if (parameters) op.parameters = parameters;
  return op;
}

export function buildOpenApiDocument(version: string, routes: readonly RouteDoc[]): Schema {
  const components: Record<string, Schema> = {};
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op: Schema = { summary: r.summary, tags: [r.tag], security: SECURITY[authOf(r)] };
    const params: object[] = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.query) params.push(...queryParameters(r.query, components));
    const headers = acceptsIdempotencyKey(r) ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [];
    if (params.length || headers.length) op.parameters = [...params, ...headers];
    if (r.body)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaFor(r.body, components)}` } } },
      };
    op.responses = responsesOf(r, operationKey(r.method, path));
    (paths[path] ??= {})[r.method] = op;
  }
  for (const alias of ALIAS_ROUTES) {
    const canonical = paths[alias.canonicalPath]?.[(alias.canonicalMethod ?? alias.method).toLowerCase()];
    if (canonical) (paths[alias.path] ??= {})[alias.method.toLowerCase()] = aliasOperation(alias, canonical);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'voiceplane API', version, description: API_DESCRIPTION },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { ...components, ...ERROR_FAMILY_SCHEMAS },
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: RESPONSE_HEADERS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (vp_…) or session token (vps_…)' },
        admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        runtime: { type: 'http', scheme: 'bearer', description: 'RUNTIME_TOKEN' },
      },
    },
  };
}
