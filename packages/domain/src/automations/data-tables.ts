import { addFieldError, FieldErrors } from '../shared/field-errors';
import { isJsonObject, JsonObject, JsonValue } from './json';

/** Data tables: fixed typed columns, rows of JSON values. */
export const COLUMN_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const COLUMN_TYPES = ['string', 'number', 'boolean'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];
export const DATA_TABLE_LIMITS = { columnsMin: 1, columnsMax: 20, name: 255, rowsPerTable: 10_000, rowsPerInsert: 500, rowBytes: 8 * 1024 } as const;

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

/** Column list problems under `columns.<i>.<field>`; unique names compared case-sensitively. */
export function checkColumns(raw: unknown): { columns: TableColumn[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!Array.isArray(raw)) {
    addFieldError(errors, 'columns', 'The columns field must be an array.');
    return { columns: [], errors };
  }
  if (raw.length < DATA_TABLE_LIMITS.columnsMin || raw.length > DATA_TABLE_LIMITS.columnsMax) {
    addFieldError(errors, 'columns', `The columns field must have between ${DATA_TABLE_LIMITS.columnsMin} and ${DATA_TABLE_LIMITS.columnsMax} items.`);
  }
  const columns: TableColumn[] = [];
  const seen = new Set<string>();
  raw.forEach((item: unknown, i) => {
    if (!isJsonObject(item)) {
      addFieldError(errors, `columns.${i}`, `The columns.${i} must be an object.`);
      return;
    }
    const { name, type } = item as { name?: unknown; type?: unknown };
    const nameOk = typeof name === 'string' && COLUMN_NAME_PATTERN.test(name);
    if (!nameOk) addFieldError(errors, `columns.${i}.name`, `The columns.${i}.name format is invalid.`);
    else if (seen.has(name)) addFieldError(errors, `columns.${i}.name`, `The columns.${i}.name field has a duplicate value.`);
    const typeOk = typeof type === 'string' && (COLUMN_TYPES as readonly string[]).includes(type);
    if (!typeOk) addFieldError(errors, `columns.${i}.type`, `The selected columns.${i}.type is invalid.`);
    if (nameOk && typeOk) {
      seen.add(name);
      columns.push({ name, type: type as ColumnType });
    }
  });
  return { columns, errors };
}

const fitsType = (type: ColumnType, v: JsonValue): boolean =>
  v === null || (type === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === type);

/**
 * Row values against the table's columns, problems under `<at>.<column>`. A full row gets null for
 * every absent column; a partial one (update) only carries what was sent.
 */
export function checkRowValues(columns: readonly TableColumn[], raw: unknown, at: string, partial: boolean): { values: JsonObject; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!isJsonObject(raw)) {
    addFieldError(errors, at, `The ${at} must be an object.`);
    return { values: {}, errors };
  }
  const values: Record<string, JsonValue> = {};
  const byName = new Map(columns.map((c) => [c.name, c]));
  for (const [key, value] of Object.entries(raw)) {
    const column = byName.get(key);
    if (!column) addFieldError(errors, `${at}.${key}`, `The ${at}.${key} column does not exist.`);
    else if (!fitsType(column.type, value as JsonValue)) addFieldError(errors, `${at}.${key}`, `The ${at}.${key} must be a ${column.type}.`);
    else Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (!partial) for (const c of columns) if (!(c.name in values)) values[c.name] = null;
  if (utf8Length(JSON.stringify(values)) > DATA_TABLE_LIMITS.rowBytes) addFieldError(errors, at, `The ${at} may not be greater than 8 kilobytes.`);
  return { values, errors };
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
