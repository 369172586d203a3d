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
