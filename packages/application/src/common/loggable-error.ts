/**
 * What of a failure may be written to a log. Errors carry more than their message: a failed query
 * its SQL parameters (password hashes, tool header values), an HTTP client error its request
 * headers. Only the kind, the message, a machine code and the stack are kept.
 */
export function loggableError(error: unknown): unknown {
  if (!(error instanceof Error)) return typeof error === 'object' && error !== null ? { type: 'non-error' } : error;
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message.slice(0, 500),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: error.stack,
  };
}

/** The serializers every logger of the product uses for the keys errors are logged under. */
export const LOG_SERIALIZERS = { err: loggableError, error: loggableError } as const;

/**
 * An automation hook URL carries its credential as the last path segment: anyone who reads it can
 * trigger the automation. Matched in any spelling the router accepts (case, full URL or path).
 */
const HOOK_TOKEN = /(\/api\/hooks\/automations\/[^/\s"?#]*\/)[^/\s"?#\\]+/gi;

/** The text with every hook URL's token replaced by `[redacted]`. */
export function redactHookTokens(text: string): string {
  // Most lines name no hook: a case-insensitive search is cheaper than the replacement.
  return /hooks\//i.test(text) ? text.replace(HOOK_TOKEN, '$1[redacted]') : text;
}

/**
 * Options every logger of the product is built with: the error serializers, and a last pass over
 * each serialized line that removes hook tokens wherever they appear (a request line, an error
 * message quoting a URL, a logged tool endpoint).
 */
export const LOG_OPTIONS = { serializers: LOG_SERIALIZERS, hooks: { streamWrite: redactHookTokens } } as const;
