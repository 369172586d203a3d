import { ToolRequest } from './tool-request';

/** Why a transport attempt did not give a 2xx (the outbound client's outcomes). */
export type TransportError = 'http_error' | 'timeout' | 'blocked_target' | 'connection_failed' | 'response_too_large';

export type ToolCallError = TransportError | 'missing_params' | 'invalid_params' | 'automation_disabled';

/** What one attempt to reach the tool's endpoint produced. */
export interface TransportOutcome {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly body: string;
  readonly durationMs: number;
  readonly error: TransportError | null;
}

/** The gateway's answer to the runtime; `content` is what the AI reads. */
export interface ToolCallResult {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly content: string;
  /** True when the AI sees less than the whole response body. */
  readonly truncated: boolean;
  readonly durationMs: number;
  readonly error: ToolCallError | null;
  readonly warnings: readonly string[];
}

export const TOOL_CONTENT_LIMIT = 8_000;
export const HTTP_ERROR_EXCERPT_LIMIT = 2_000;
export const TRUNCATION_SUFFIX = '…[truncated]';

/** Step 8: the outcome of a sent request as the AI will read it. */
export function toolCallResult(
  outcome: TransportOutcome,
  timeoutSeconds: number,
  warnings: readonly string[],
): ToolCallResult {
  const base = { statusCode: outcome.statusCode, durationMs: outcome.durationMs, warnings };
  if (outcome.error === null) {
    const cut = firstCharacters(compactJson(outcome.body), TOOL_CONTENT_LIMIT);
    return {
      ...base,
      ok: true,
      error: null,
      truncated: cut.truncated,
      content: cut.truncated ? cut.text + TRUNCATION_SUFFIX : cut.text,
    };
  }
  switch (outcome.error) {
    case 'http_error': {
      const excerpt = firstCharacters(outcome.body, HTTP_ERROR_EXCERPT_LIMIT);
      const content = JSON.stringify({ error: 'http_error', status: outcome.statusCode, body: excerpt.text });
      return { ...base, ok: false, error: 'http_error', truncated: excerpt.truncated, content };
    }
    case 'timeout': {
      const unit = timeoutSeconds === 1 ? 'second' : 'seconds';
      const content = JSON.stringify({
        error: 'timeout',
        message: `The tool did not answer within ${timeoutSeconds} ${unit}.`,
      });
      return { ...base, ok: false, error: 'timeout', truncated: false, content };
    }
    default:
      return {
        ...base,
        ok: false,
        error: outcome.error,
        truncated: false,
        content: JSON.stringify({ error: outcome.error }),
      };
  }
}

/** The result of a request that was not sent: parameters first, then the target. */
export function unsentToolCallResult(request: ToolRequest, warnings: readonly string[]): ToolCallResult {
  const base = { statusCode: null, durationMs: 0, truncated: false, warnings };
  const { missingRequired: missing, invalidParams: invalid } = request;
  if (missing.length > 0 || invalid.length > 0) {
    const error = missing.length > 0 ? 'missing_params' : 'invalid_params';
    const details = { error, ...(missing.length > 0 ? { missing } : {}), ...(invalid.length > 0 ? { invalid } : {}) };
    return { ...base, ok: false, error, content: JSON.stringify(details) };
  }
  return { ...base, ok: false, error: 'blocked_target', content: JSON.stringify({ error: 'blocked_target' }) };
}

/** `warnings` of a result: variables that were replaced by "". */
export function substitutionWarnings(request: ToolRequest): string[] {
  return request.unresolvedVariables.map((name) => `Unknown variable "${name}" was replaced by an empty string.`);
}

/** JSON re-serialised without whitespace; any other text unchanged. */
function compactJson(body: string): string {
  const first = body.trimStart()[0];
  if (first !== '{' && first !== '[') return body;
  try {
    return JSON.stringify(JSON.parse(body));
  } catch {
    return body;
  }
}

/** The first `limit` characters (code points, so a surrogate pair is never split). */
export function firstCharacters(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  let count = 0;
  let end = 0;
  while (end < text.length && count < limit) {
    const code = text.charCodeAt(end);
    const next = text.charCodeAt(end + 1);
    end += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    count++;
  }
  return end >= text.length ? { text, truncated: false } : { text: text.slice(0, end), truncated: true };
}
