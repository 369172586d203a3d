import { STATUS_CODES } from 'node:http';
import { ErrorFamily, familyOf } from './error-families';
import type { Schema } from './dto-schemas';
import { HANDLER_ERRORS } from './handler-errors';
import { ErrorAnswers, pipelineAnswers } from './pipeline-answers';
import type { RouteDoc } from './route-doc';
import { successExample } from './success-examples';

/** Response headers worth a client's attention, by status (their definitions are `components.headers`). */
const HEADERS_BY_STATUS: Record<number, string[]> = { 401: ['WWW-Authenticate'], 429: ['Retry-After'] };

export const RESPONSE_HEADERS: Record<string, Schema> = {
  'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string', const: 'Bearer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
};

/** The document's key of an operation, as in the example tables: `GET /api/user/tools/{id}`. */
export function operationKey(method: string, documentPath: string): string {
  return `${method.toUpperCase()} ${documentPath}`;
}

function merged(...sources: ErrorAnswers[]): Map<number, object[]> {
  const byStatus = new Map<number, object[]>();
  for (const source of sources) {
    for (const [status, bodies] of Object.entries(source))
      byStatus.set(Number(status), [...(byStatus.get(Number(status)) ?? []), ...bodies]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

const familyRef = (family: ErrorFamily): Schema => ({ $ref: `#/components/schemas/${family}` });

/** One example per body, named after its family (`validation`, `message`, `message_2`, …) and summarised by its text. */
function examplesOf(
  status: number,
  bodies: readonly object[],
): { families: ErrorFamily[]; examples: Record<string, Schema> } {
  const families: ErrorFamily[] = [];
  const examples: Record<string, Schema> = {};
  for (const body of bodies) {
    const family = familyOf(status, body);
    families.push(family);
    const base = family
      .replace(/Error$/, '')
      .replace(/([a-z])([A-Z])/g, '$1_$2')
      .toLowerCase();
    const count = families.filter((f) => f === family).length;
    const { message, error } = body as { message?: string; error?: string };
    examples[count === 1 ? base : `${base}_${count}`] = { summary: message ?? error, value: body };
  }
  return { families, examples };
}

function errorResponse(status: number, bodies: readonly object[]): Schema {
  const { families, examples } = examplesOf(status, bodies);
  const distinct = [...new Set(families)];
  // Families overlap in shape (a rate-limit body is also a message body), so alternatives are anyOf, not oneOf.
  const schema = distinct.length === 1 ? familyRef(distinct[0]) : { anyOf: distinct.map(familyRef) };
  const headers = HEADERS_BY_STATUS[status];
  return {
    description: STATUS_CODES[status] ?? 'Error',
    ...(headers ? { headers: Object.fromEntries(headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
    content: { 'application/json': { schema, examples } },
  };
}

/** The success answer and every error answer of one operation, each with real example bodies. */
export function responsesOf(route: RouteDoc, key: string): Record<string, Schema> {
  const status = route.success ?? 200;
  const example = successExample(key, status);
  const responses: Record<string, Schema> = {
    [String(status)]: {
      description: 'Success',
      content: {
        [route.produces ?? 'application/json']:
          example === undefined ? {} : { examples: { success: { value: example } } },
      },
    },
  };
  for (const [status, bodies] of merged(pipelineAnswers(route), HANDLER_ERRORS[key] ?? {}))
    responses[String(status)] = errorResponse(status, bodies);
  return responses;
}
