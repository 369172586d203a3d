import { ConversationCursor } from '@voiceplane/application';
import { failValidation } from '../../pipeline/responses';

/** Cursors are opaque to clients (§1.7): base64url of the position after the page's last item. */
export function encodeCursor(cursor: ConversationCursor | null): string | null {
  if (cursor === null) return null;
  const position = cursor.at === undefined ? { i: cursor.id } : { i: cursor.id, a: cursor.at.toISOString() };
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** An undecodable cursor is the conversation family's 422 keyed `cursor`. */
export function decodeCursor(raw: string | undefined, withTime: boolean): ConversationCursor | null {
  if (raw === undefined) return null;
  try {
    const position = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { i?: unknown; a?: unknown };
    if (Number.isSafeInteger(position.i) && (position.i as number) > 0) {
      if (!withTime) return { id: position.i as number };
      const at = typeof position.a === 'string' ? new Date(position.a) : null;
      if (at !== null && !Number.isNaN(at.getTime())) return { id: position.i as number, at };
    }
  } catch {
    // Falls through to the validation answer.
  }
  failValidation({ cursor: ['The selected cursor is invalid.'] }, 'conversation');
}
