import { isJsonObject, JsonValue } from '../json';
import { oneOf, requireText, StepKindRules } from './step-kind';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `omit_fields`: top-level keys removed from an object body (how `include_transcript: false` is said). */
export interface HttpRequestConfig {
  readonly method: HttpMethod;
  readonly url: string;
  readonly body?: JsonValue;
  readonly omit_fields?: readonly string[];
}

/** A signed request to a URL (sent, with its retries, by the application's handler). */
export const HTTP_REQUEST_STEP: StepKindRules<HttpRequestConfig> = {
  checkConfig: (c, bad) => {
    if (!oneOf(HTTP_METHODS, c.method)) bad('method');
    requireText(c, 'url', bad);
    if ('omit_fields' in c && !(Array.isArray(c.omit_fields) && c.omit_fields.every((f) => typeof f === 'string')))
      bad('omit_fields');
  },
};

/** The body an `http.request` sends: `omit_fields` are removed from an object body. */
export function requestBody(body: JsonValue | undefined, omitFields: readonly string[] = []): JsonValue | undefined {
  if (!isJsonObject(body) || omitFields.length === 0) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !omitFields.includes(key)));
}
