import { DataTable, JsonObject, JsonValue, TableColumn, TableRow } from '@voiceplane/domain';
import { DataTableRepository, Page, PageRequest } from '@voiceplane/application';
import { Database } from '../../database';
import { AutomationTableRecord, AutomationTableRowRecord } from '../../records';
import { Count, isUniqueViolation, num, pageClause, unlessFails } from '../rows';

const TABLE_COLUMNS = `t.id, t.user_id, t.name, t.columns, t.created_at, t.updated_at,
  (SELECT count(*) FROM automation_table_rows r WHERE r.table_id = t.id) AS rows_count`;
const ROW_COLUMNS = 'id, table_id, values, created_at, updated_at';
/** Rows with their table's columns, so values come back in column order (jsonb keeps its own key order). */
const withColumns = (rows: string): string =>
  `SELECT r.*, t.columns FROM ${rows} r JOIN automation_tables t ON t.id = r.table_id`;

/** TABLE_COLUMNS: the whole table record and how many rows it holds (a count: bigint, or 0 when just made). */
type TableWithCount = AutomationTableRecord & { rows_count: string | number };
/** A row of `withColumns`: the whole row record and its table's columns. */
type RowWithColumns = AutomationTableRowRecord & Pick<AutomationTableRecord, 'columns'>;

const toTable = (r: TableWithCount): DataTable => ({
  id: num(r.id),
  userId: num(r.user_id),
  name: r.name,
  columns: r.columns as TableColumn[],
  rowsCount: num(r.rows_count),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function inColumnOrder(values: JsonObject, columns: readonly TableColumn[]): JsonObject {
  const ordered: Record<string, JsonValue> = {};
  for (const c of columns) if (Object.prototype.hasOwnProperty.call(values, c.name)) ordered[c.name] = values[c.name];
  return ordered;
}

const toRow = (r: RowWithColumns): TableRow => ({
  id: num(r.id),
  tableId: num(r.table_id),
  values: inColumnOrder(r.values as JsonObject, r.columns as TableColumn[]),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class TypeormDataTableRepository implements DataTableRepository {
  constructor(private readonly db: Database) {}

  create(userId: number, name: string, columns: readonly TableColumn[]): Promise<DataTable | 'name_taken'> {
    return unlessFails(
      this.db,
      async () =>
        toTable(
          (
            await this.db.query<TableWithCount>(
              `INSERT INTO automation_tables (user_id, name, columns) VALUES ($1, $2, $3::jsonb) RETURNING id, user_id, name, columns, created_at, updated_at, 0 AS rows_count`,
              [userId, name, JSON.stringify(columns)],
            )
          )[0],
        ),
      isUniqueViolation,
      'name_taken' as const,
    );
  }

  async find(userId: number, id: number): Promise<DataTable | null> {
    const row = await this.db.one<TableWithCount>(
      `SELECT ${TABLE_COLUMNS} FROM automation_tables t WHERE t.user_id = $1 AND t.id = $2`,
      [userId, id],
    );
    return row ? toTable(row) : null;
  }

  async list(userId: number, page: PageRequest): Promise<Page<DataTable>> {
    const limit = pageClause(page, 2);
    const [rows, count] = await Promise.all([
      this.db.query<TableWithCount>(
        `SELECT ${TABLE_COLUMNS} FROM automation_tables t WHERE t.user_id = $1 ORDER BY t.id DESC ${limit.sql}`,
        [userId, ...limit.params],
      ),
      this.db.one<Count>(`SELECT count(*) AS n FROM automation_tables WHERE user_id = $1`, [userId]),
    ]);
    return { items: rows.map(toTable), total: num(count?.n) };
  }

  async listAll(userId: number): Promise<DataTable[]> {
    return (
      await this.db.query<TableWithCount>(
        `SELECT ${TABLE_COLUMNS} FROM automation_tables t WHERE t.user_id = $1 ORDER BY t.id`,
        [userId],
      )
    ).map(toTable);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (
      (
        await this.db.query<Pick<AutomationTableRecord, 'id'>>(
          `DELETE FROM automation_tables WHERE user_id = $1 AND id = $2 RETURNING id`,
          [userId, id],
        )
      ).length > 0
    );
  }

  async listRows(tableId: number, page: PageRequest): Promise<Page<TableRow>> {
    const limit = pageClause(page, 2);
    const [rows, count] = await Promise.all([
      this.db.query<RowWithColumns>(
        `${withColumns('automation_table_rows')} WHERE r.table_id = $1 ORDER BY r.id ${limit.sql}`,
        [tableId, ...limit.params],
      ),
      this.db.one<{ n: string }>(`SELECT count(*) AS n FROM automation_table_rows WHERE table_id = $1`, [tableId]),
    ]);
    return { items: rows.map(toRow), total: num(count?.n) };
  }

  addRows(tableId: number, rows: readonly JsonObject[], maxRows: number): Promise<TableRow[] | 'table_full'> {
    return this.db.transaction(async () => {
      // The table row serialises concurrent inserts, so the row limit holds under bursts.
      await this.db.one(`SELECT id FROM automation_tables WHERE id = $1 FOR UPDATE`, [tableId]);
      const count = await this.db.one<{ n: string }>(
        `SELECT count(*) AS n FROM automation_table_rows WHERE table_id = $1`,
        [tableId],
      );
      if (num(count?.n) + rows.length > maxRows) return 'table_full';
      const inserted = await this.db.query<RowWithColumns>(
        `WITH added AS (INSERT INTO automation_table_rows (table_id, values)
           SELECT $1, v FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(v, n) ORDER BY n RETURNING ${ROW_COLUMNS})
         ${withColumns('added')}`,
        [tableId, JSON.stringify(rows)],
      );
      await this.db.query(`UPDATE automation_tables SET updated_at = now() WHERE id = $1`, [tableId]);
      return inserted.map(toRow).sort((a, b) => a.id - b.id);
    });
  }

  async updateRow(tableId: number, rowId: number, values: JsonObject): Promise<TableRow | null> {
    const row = await this.db.one<RowWithColumns>(
      `WITH changed AS (UPDATE automation_table_rows SET values = values || $3::jsonb, updated_at = now() WHERE table_id = $1 AND id = $2 RETURNING ${ROW_COLUMNS})
       ${withColumns('changed')}`,
      [tableId, rowId, JSON.stringify(values)],
    );
    return row ? toRow(row) : null;
  }

  async deleteRow(tableId: number, rowId: number): Promise<boolean> {
    return (
      (
        await this.db.query<Pick<AutomationTableRowRecord, 'id'>>(
          `DELETE FROM automation_table_rows WHERE table_id = $1 AND id = $2 RETURNING id`,
          [tableId, rowId],
        )
      ).length > 0
    );
  }

  async firstRow(tableId: number): Promise<TableRow | null> {
    const row = await this.db.one<RowWithColumns>(
      `${withColumns('automation_table_rows')} WHERE r.table_id = $1 ORDER BY r.id LIMIT 1`,
      [tableId],
    );
    return row ? toRow(row) : null;
  }

  async lookup(userId: number, tableId: number, column: string, value: string): Promise<TableRow | null | 'no_table'> {
    // The table's columns, and its matching row or, when none matches, nulls in the row's columns.
    const row = await this.db.one<RowWithColumns | (Pick<AutomationTableRecord, 'columns'> & { id: null })>(
      `SELECT t.columns, r.* FROM automation_tables t
         LEFT JOIN LATERAL (SELECT ${ROW_COLUMNS} FROM automation_table_rows
           WHERE table_id = t.id AND lower(btrim(values ->> $3)) = lower(btrim($4)) ORDER BY id LIMIT 1) r ON true
        WHERE t.id = $1 AND t.user_id = $2`,
      [tableId, userId, column, value],
    );
    if (row === null) return 'no_table';
    return row.id === null ? null : toRow(row);
  }
}
