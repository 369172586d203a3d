import { addFieldProblem, FieldProblems } from '../common/field-problems';
import { isJsonObject, JsonObject, JsonValue } from './json';

/** Data tables: fixed typed columns, rows of JSON values. */
export const COLUMN_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const COLUMN_TYPES = ['string', 'number', 'boolean'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];
export const DATA_TABLE_LIMITS = {
  columnsMin: 1,
  columnsMax: 20,
  name: 255,
  rowsPerTable: 10_000,
  rowsPerInsert: 500,
  rowBytes: 8 * 1024,
} as const;

export interface TableColumn {
  readonly name: string;
  readonly type: ColumnType;
}

export interface DataTable {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly columns: readonly TableColumn[];
  readonly rowsCount: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface TableRow {
  readonly id: number;
  readonly tableId: number;
  readonly values: JsonObject;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the column and row rules can find wrong, on the field they name; the HTTP layer words it. */
export type DataTableProblem =
  | { readonly code: 'not_array' }
  | { readonly code: 'item_count'; readonly min: number; readonly max: number }
  | { readonly code: 'not_object' }
  | { readonly code: 'format_invalid' }
  | { readonly code: 'duplicate' }
  | { readonly code: 'selected_invalid' }
  | { readonly code: 'unknown_column' }
  | { readonly code: 'wrong_type'; readonly type: ColumnType }
  | { readonly code: 'too_large'; readonly maxBytes: number };

/** Column list problems under `columns.<i>.<field>`; unique names compared case-sensitively. */
export function checkColumns(raw: unknown): { columns: TableColumn[]; problems: FieldProblems<DataTableProblem> } {
  const problems: FieldProblems<DataTableProblem> = {};
  if (!Array.isArray(raw)) {
    addFieldProblem(problems, 'columns', { code: 'not_array' });
    return { columns: [], problems };
  }
  if (raw.length < DATA_TABLE_LIMITS.columnsMin || raw.length > DATA_TABLE_LIMITS.columnsMax) {
    addFieldProblem(problems, 'columns', {
      code: 'item_count',
      min: DATA_TABLE_LIMITS.columnsMin,
      max: DATA_TABLE_LIMITS.columnsMax,
    });
  }
  const columns: TableColumn[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, i) => {
    if (!isJsonObject(item)) {
      addFieldProblem(problems, `columns.${i}`, { code: 'not_object' });
      return;
    }
    const { name, type } = item as { name?: unknown; type?: unknown };
    const nameOk = typeof name === 'string' && COLUMN_NAME_PATTERN.test(name);
    if (!nameOk) addFieldProblem(problems, `columns.${i}.name`, { code: 'format_invalid' });
    else if (seen.has(name)) addFieldProblem(problems, `columns.${i}.name`, { code: 'duplicate' });
    const typeOk = typeof type === 'string' && (COLUMN_TYPES as readonly string[]).includes(type);
    if (!typeOk) addFieldProblem(problems, `columns.${i}.type`, { code: 'selected_invalid' });
    if (nameOk && typeOk) {
      seen.add(name);
      columns.push({ name, type: type as ColumnType });
    }
  });
  return { columns, problems };
}

const fitsType = (type: ColumnType, v: JsonValue): boolean =>
  v === null || (type === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === type);

/**
 * Row values against the table's columns, problems under `<at>.<column>`. A full row gets null for
 * every absent column; a partial one (update) only carries what was sent.
 */
export function checkRowValues(
  columns: readonly TableColumn[],
  raw: unknown,
  at: string,
  partial: boolean,
): { values: JsonObject; problems: FieldProblems<DataTableProblem> } {
  const problems: FieldProblems<DataTableProblem> = {};
  if (!isJsonObject(raw)) {
    addFieldProblem(problems, at, { code: 'not_object' });
    return { values: {}, problems };
  }
  const values: Record<string, JsonValue> = {};
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const [key, value] of Object.entries(raw)) {
    const column = byName.get(key);
    if (!column) addFieldProblem(problems, `${at}.${key}`, { code: 'unknown_column' });
    else if (!fitsType(column.type, value as JsonValue))
      addFieldProblem(problems, `${at}.${key}`, { code: 'wrong_type', type: column.type });
    else Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (!partial) for (const c of columns) if (!(c.name in values)) values[c.name] = null;
  if (utf8Length(JSON.stringify(values)) > DATA_TABLE_LIMITS.rowBytes)
    addFieldProblem(problems, at, { code: 'too_large', maxBytes: DATA_TABLE_LIMITS.rowBytes });
  return { values, problems };
}

/** Bytes of `text` in UTF-8 (surrogate pairs count 4). */
export function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}
