import type { NextFunction, Request, Response } from 'express';
import { FieldErrors } from '@voiceplane/domain';
import { familyOfPath, validationBody } from './families';

/**
 * Text no route may store or use: a NUL byte (PostgreSQL refuses it in text) or half of a UTF-16
 * surrogate pair (not representable in UTF-8). Found anywhere in a body or query, the request is
 * refused before any handler runs.
 */
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The dotted path of the first string (value or key) holding unsafe text, or null. Walked with an
 * explicit stack, in document order: a hostile body's depth must not become this process's stack depth.
 */
export function unsafeTextPath(value: unknown): string | null {
  if (typeof value === 'string') return UNSAFE_TEXT.test(value) ? 'body' : null;
  // The usual body and query of a read, `{}`, without setting up the walk.
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && isEmpty(value)) return null;
  // Each entry: a key still to check (its parent's path answers for it) and the value under it.
  const pending: { parent: string; key: string | null; path: string; value: unknown }[] = [
    { parent: '', key: null, path: '', value },
  ];
  while (pending.length > 0) {
    const { parent, key, path, value: current } = pending.pop()!;
    if (key !== null && UNSAFE_TEXT.test(key)) return parent || 'body';
    if (typeof current === 'string') {
      if (UNSAFE_TEXT.test(current)) return path || 'body';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries: [string, unknown][] = Array.isArray(current)
      ? current.map((v, i) => [String(i), v])
      : Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [childKey, child] = entries[i];
      pending.push({ parent: path, key: childKey, path: path ? `${path}.${childKey}` : childKey, value: child });
    }
  }
  return null;
}

/** No own enumerable string key: nothing the walk below would visit (it walks `Object.entries`). */
function isEmpty(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** The 422 errors for unsafe text at `path`, worded like the validation catalogue. */
export function unsafeTextErrors(path: string): FieldErrors {
  const name = path.includes('.') ? path : path.replace(/_/g, ' ');
  return { [path]: [`The ${name} contains characters that are not allowed.`] };
}

/**
 * A path whose every segment decodes to text a route may use. A segment with a malformed or
 * non-UTF-8 escape (`%ff`), or one that decodes to unsafe text (`%00`), is taken literally (its `%`
 * escaped), so the router hands the route the text as sent and the route answers its own 404
 * instead of the router failing on it or a NUL reaching a query.
 */
export function decodablePath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => {
      try {
        if (!UNSAFE_TEXT.test(decodeURIComponent(segment))) return segment;
      } catch {
        // not decodable: taken literally below
      }
      return segment.replace(/%/g, '%25');
    })
    .join('/');
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

/**
 * How deep a JSON body may nest. Far beyond any body a route takes (an automation definition or a
 * schema nests a handful of levels), far below what a recursive walker — ours, class-transformer's,
 * PostgreSQL's jsonb parser — survives.
 */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text opens more than `max` arrays/objects inside each other (strings skipped). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The 422 errors for a body nested deeper than {@link MAX_JSON_DEPTH}. */
export function tooDeepErrors(): FieldErrors {
  return { body: [`The request body may not be nested more than ${MAX_JSON_DEPTH} levels deep.`] };
}
