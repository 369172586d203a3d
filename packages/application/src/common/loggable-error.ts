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
 * The routes whose address carries their credential as the last path segment: an automation's hook
 * URL (anyone who reads it can trigger the automation) and the sandbox checkout page (anyone who reads
 * it can pay or decline the top-up). Matched in any spelling the router accepts (case, full URL or path).
 */
const PATH_SECRETS = [
  /(\/api\/hooks\/automations\/[^/\s"?#]*\/)[^/\s"?#\\]+/gi,
  /(\/api\/sandbox\/billing\/checkout\/)[^/\s"?#\\]+/gi,
];

/** The text with the credential of every such address replaced by `[redacted]`. */
export function redactPathSecrets(text: string): string {
  // Most lines name neither: a case-insensitive search is cheaper than the replacements.
  if (!/hooks\/|checkout\//i.test(text)) return text;
  return PATH_SECRETS.reduce((redacted, secret) => redacted.replace(secret, '$1[redacted]'), text);
}

/**
 * Options every logger of the product is built with: the error serializers, and a last pass over
 * each serialized line that removes the credentials of addresses (hook tokens, checkout tokens) wherever
 * they appear (a request line, an error message quoting a URL, a logged tool endpoint).
 */
export const LOG_OPTIONS = { serializers: LOG_SERIALIZERS, hooks: { streamWrite: redactPathSecrets } } as const;
