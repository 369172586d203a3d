import type { NextFunction, Request, Response } from 'express';
import { FieldErrors } from '@voiceplane/domain';
import { familyOfPath, validationBody } from './families';

/**
 * Text no route may store or use: a NUL byte (PostgreSQL refuses it in text) or half of a UTF-16
 * surrogate pair (not representable in UTF-8). Found anywhere in a body or query, the request is
 * refused before any handler runs.
 */
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The dotted path of the first string (value or key) holding unsafe text, or null. */
export function unsafeTextPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSAFE_TEXT.test(value) ? path || 'body' : null;
  if (typeof value !== 'object' || value === null) return null;
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const childPath = path ? `${path}.${key}` : key;
    if (UNSAFE_TEXT.test(key)) return path || 'body';
    const found = unsafeTextPath(child, childPath);
    if (found) return found;
  }
  return null;
}

/** The 422 errors for unsafe text at `path`, worded like the validation catalogue (CONTRACT §1.6, D1). */
export function unsafeTextErrors(path: string): FieldErrors {
  const name = path.includes('.') ? path : path.replace(/_/g, ' ');
  return { [path]: [`The ${name} contains characters that are not allowed.`] };
}

/**
 * A path whose every segment decodes. A segment with a malformed or non-UTF-8 escape (`%ff`) is
 * taken literally (its `%` escaped), so the router hands the route the text as sent and the route
 * answers its own 404 instead of the router failing on it.
 */
export function decodablePath(path: string): string {
  if (!path.includes('%')) return path;
  return path.split('/').map((segment) => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return segment.replace(/%/g, '%25');
    }
  }).join('/');
}

/** Refuses a request whose JSON or form body, or query, holds unsafe text: the family's 422, nothing run. */
export function refuseUnsafeText(req: Request, res: Response, next: NextFunction): void {
  const inBody = Buffer.isBuffer(req.body) ? null : unsafeTextPath(req.body);
  const path = inBody ?? unsafeTextPath(req.query);
  if (path === null) {
    next();
    return;
  }
  res.status(422).json(validationBody(familyOfPath(req.path), unsafeTextErrors(path)));
}
