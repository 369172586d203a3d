/**
 * Rows are read typed: in packages/adapter-typeorm (records and migrations aside) a query whose
 * result is used names its row type — a record's row interface, a `Pick` of it, or a named shape
 * for a computed column — and no row is a `Record<string, unknown>` read through casts.
 *
 * Counted per file: `Record<string, unknown>`, and `.query(` / `.one(` calls without a type
 * argument whose result is used (a statement `await x.query(…);` that discards it is fine).
 * UNTYPED_ROWS_LEFT lists the files not yet converted and how many they hold: a file may go
 * down, never up, and a file not listed holds none. Lower or remove an entry as you convert.
 */

export const TYPED_ROWS_ROOT = 'packages/adapter-typeorm/src/';

export const UNTYPED_ROWS_LEFT: Readonly<Record<string, number>> = {
  'packages/adapter-typeorm/src/data-source.ts': 2,
  'packages/adapter-typeorm/src/database.ts': 6,
  'packages/adapter-typeorm/src/outbox/notifications.ts': 1,
  'packages/adapter-typeorm/src/outbox/outbox-notifier.ts': 1,
  'packages/adapter-typeorm/src/outbox/processed-events.ts': 1,
  'packages/adapter-typeorm/src/outbox/unpublished-events.ts': 1,
  'packages/adapter-typeorm/src/repositories/assistants/assistant-repository.ts': 11,
  'packages/adapter-typeorm/src/repositories/assistants/assistant-rows.ts': 3,
  'packages/adapter-typeorm/src/repositories/calls/call-repository.ts': 12,
  'packages/adapter-typeorm/src/repositories/calls/call-tool-context.ts': 1,
  'packages/adapter-typeorm/src/repositories/chatapp/chatapp-inbox.ts': 5,
  'packages/adapter-typeorm/src/repositories/chatapp/chatapp-message-repository.ts': 4,
  'packages/adapter-typeorm/src/repositories/chatapp/conversation-repository.ts': 11,
  'packages/adapter-typeorm/src/repositories/chatapp/inbound-media-repository.ts': 6,
  'packages/adapter-typeorm/src/repositories/chatapp/message-rows.ts': 2,
  'packages/adapter-typeorm/src/repositories/chatapp/sandbox-chatapp-state.ts': 2,
  'packages/adapter-typeorm/src/repositories/chatapp/send-reservation-repository.ts': 1,
  'packages/adapter-typeorm/src/repositories/chatapp/sender-repository.ts': 10,
  'packages/adapter-typeorm/src/repositories/chatapp/template-repository.ts': 8,
  'packages/adapter-typeorm/src/repositories/knowledge-bases/document-repository.ts': 11,
  'packages/adapter-typeorm/src/repositories/knowledge-bases/knowledge-base-repository.ts': 7,
  'packages/adapter-typeorm/src/repositories/telephony/phone-number-repository.ts': 6,
  'packages/adapter-typeorm/src/repositories/telephony/sip-trunk-repository.ts': 5,
  'packages/adapter-typeorm/src/repositories/tools/tool-invocation-log.ts': 6,
};

/** How many untyped row reads `text` holds. */
export function untypedRows(text: string): number {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const records = code.match(/Record<string, unknown>/g)?.length ?? 0;
  let untypedReads = 0;
  for (const m of code.matchAll(/(^|[^\n]*?)\.(query|one)\(/gm)) {
    const before = m[1];
    // A statement that discards its result: `await this.db.query(` as the whole line's start.
    if (/^\s*await\s+[\w.]+$/.test(before)) continue;
    untypedReads++;
  }
  return records + untypedReads;
}

/** A violation when a file of the adapter holds more untyped row reads than it is allowed. */
export function untypedRowViolations(file: string, text: string): string[] {
  const rel = file.split('\\').join('/');
  if (!rel.startsWith(TYPED_ROWS_ROOT) || rel.endsWith('.spec.ts')) return [];
  if (/\/(records|migrations)\//.test(rel)) return [];
  const found = untypedRows(text);
  const allowed = UNTYPED_ROWS_LEFT[rel] ?? 0;
  return found > allowed
    ? [`${rel} reads ${found} untyped row(s), allowed ${allowed}: give the query its row type (Pick<XRecord, …>) instead of Record<string, unknown>`]
    : [];
}
