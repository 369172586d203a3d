import { ConversationCursor } from '@voiceplane/application';
import { refuse, validationAnswer } from '../../pipeline/answers';
import { parseTimestamp } from '../../validation';

/**
 * Cursors are opaque to clients: base64url of a position — after the page's last item
 * (`next_cursor`), or before its first (`prev_cursor`, marked `b`).
 */
export function encodeCursor(cursor: ConversationCursor | null): string | null {
  if (cursor === null) return null;
  const position = {
    i: cursor.id,
    ...(cursor.at === undefined ? {} : { a: cursor.at.toISOString() }),
    ...(cursor.before ? { b: 1 } : {}),
  };
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** An undecodable cursor is the conversation family's 422 keyed `cursor`. */
export function decodeCursor(raw: string | undefined, withTime: boolean): ConversationCursor | null {
  if (raw === undefined) return null;
  try {
    const position = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as {
      i?: unknown;
      a?: unknown;
      b?: unknown;
    };
    const before = position.b === 1 ? { before: true } : {};
    if (
      Number.isSafeInteger(position.i) &&
      (position.i as number) > 0 &&
      (position.b === undefined || position.b === 1)
    ) {
      if (!withTime) return { id: position.i as number, ...before };
      // The position's time goes into a query: only what the encoder writes (a four-digit-year ISO
      // timestamp, which PostgreSQL can hold) is a position; `-271821-04-20T…` is not.
      const at = typeof position.a === 'string' ? parseTimestamp(position.a) : null;
      if (at !== null) return { id: position.i as number, at, ...before };
    }
  } catch {
    // Falls through to the validation answer.
  }
  refuse(validationAnswer({ cursor: ['The selected cursor is invalid.'] }, 'conversation'));
}
