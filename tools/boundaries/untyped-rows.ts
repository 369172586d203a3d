/**
 * Rows are read typed: in packages/adapter-typeorm (records and migrations aside) a query whose
 * result is used names its row type — a record's row interface, a `Pick` of it, or a named shape
 * for a computed column — and no row is a `Record<string, unknown>` read through casts. None is
 * allowed: `Database.query`'s default row type is `unknown`, so the compiler refuses a column read
 * from an untyped query, and this rule refuses the untyped query itself.
 *
 * Counted per file: `Record<string, unknown>`, and `.query(` / `.one(` calls without a type
 * argument whose result is used (a statement `await x.query(…);` that discards it is fine).
 */

export const TYPED_ROWS_ROOT = 'packages/adapter-typeorm/src/';

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

/** A violation when a file of the adapter holds any untyped row read. */
export function untypedRowViolations(file: string, text: string): string[] {
  const rel = file.split('\\').join('/');
  if (!rel.startsWith(TYPED_ROWS_ROOT) || rel.endsWith('.spec.ts')) return [];
  if (/\/(records|migrations)\//.test(rel)) return [];
  const found = untypedRows(text);
  return found > 0
    ? [
        `${rel} reads ${found} untyped row(s): give the query its row type (Pick<XRecord, …>) instead of Record<string, unknown>`,
      ]
    : [];
}
