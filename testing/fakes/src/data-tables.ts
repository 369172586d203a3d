import { DataTable, JsonObject, JsonValue, TableColumn, TableRow } from '@voiceplane/domain';
import { DataTableRepository, Page, PageRequest } from '@voiceplane/application';
import { copy } from './copy';

/** Data tables in memory, with the semantics of the PostgreSQL repository (see the data-tables contract). */
export class InMemoryDataTableRepository implements DataTableRepository {
  private readonly tables = new Map<number, Omit<DataTable, 'rowsCount'>>();
  private readonly rows = new Map<number, TableRow>();
  private lastTableId = 0;
  private lastRowId = 0;

  constructor(private readonly now: () => Date = () => new Date()) {}

  async create(userId: number, name: string, columns: readonly TableColumn[]): Promise<DataTable | 'name_taken'> {
    if ([...this.tables.values()].some((t) => t.userId === userId && t.name === name)) return 'name_taken';
    const at = this.now();
    const table = { id: ++this.lastTableId, userId, name, columns: copy(columns), createdAt: at, updatedAt: at };
    this.tables.set(table.id, table);
    return this.counted(table);
  }

  async find(userId: number, id: number): Promise<DataTable | null> {
    const table = this.tables.get(id);
    return table && table.userId === userId ? this.counted(table) : null;
  }

  async list(userId: number, page: PageRequest): Promise<Page<DataTable>> {
    const all = [...this.tables.values()].filter((t) => t.userId === userId).sort((a, b) => b.id - a.id);
    return {
      items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((t) => this.counted(t)),
      total: all.length,
    };
  }

  async listAll(userId: number): Promise<DataTable[]> {
    return [...this.tables.values()]
      .filter((t) => t.userId === userId)
      .sort((a, b) => a.id - b.id)
      .map((t) => this.counted(t));
  }

  async delete(userId: number, id: number): Promise<boolean> {
    if (!(await this.find(userId, id))) return false;
    this.tables.delete(id);
    for (const row of this.rowsOf(id)) this.rows.delete(row.id);
    return true;
  }

  async listRows(tableId: number, page: PageRequest): Promise<Page<TableRow>> {
    const all = this.rowsOf(tableId);
    return {
      items: all.slice((page.page - 1) * page.perPage, page.page * page.perPage).map((r) => this.ordered(r)),
      total: all.length,
    };
  }

  async addRows(tableId: number, values: readonly JsonObject[], maxRows: number): Promise<TableRow[] | 'table_full'> {
    if (this.rowsOf(tableId).length + values.length > maxRows) return 'table_full';
    const at = this.now();
    return values.map((v) => {
      const row: TableRow = { id: ++this.lastRowId, tableId, values: copy(v), createdAt: at, updatedAt: at };
      this.rows.set(row.id, row);
      return this.ordered(row);
    });
  }

  async updateRow(tableId: number, rowId: number, values: JsonObject): Promise<TableRow | null> {
    const row = this.rows.get(rowId);
    if (!row || row.tableId !== tableId) return null;
    const changed = { ...row, values: { ...row.values, ...copy(values) }, updatedAt: this.now() };
    this.rows.set(rowId, changed);
    return this.ordered(changed);
  }

  async deleteRow(tableId: number, rowId: number): Promise<boolean> {
    const row = this.rows.get(rowId);
    return row !== undefined && row.tableId === tableId && this.rows.delete(rowId);
  }

  async firstRow(tableId: number): Promise<TableRow | null> {
    const [first] = this.rowsOf(tableId);
    return first ? this.ordered(first) : null;
  }

  async lookup(userId: number, tableId: number, column: string, value: string): Promise<TableRow | null | 'no_table'> {
    if (!(await this.find(userId, tableId))) return 'no_table';
    const wanted = value.trim().toLowerCase();
    const row = this.rowsOf(tableId).find(
      (r) =>
        Object.prototype.hasOwnProperty.call(r.values, column) &&
        r.values[column] !== null &&
        asText(r.values[column]).trim().toLowerCase() === wanted,
    );
    return row ? this.ordered(row) : null;
  }

  private rowsOf(tableId: number): TableRow[] {
    return [...this.rows.values()].filter((r) => r.tableId === tableId).sort((a, b) => a.id - b.id);
  }

  private counted(table: Omit<DataTable, 'rowsCount'>): DataTable {
    return copy({ ...table, rowsCount: this.rowsOf(table.id).length });
  }

  /** Values in column order, as PostgreSQL answers them. */
  private ordered(row: TableRow): TableRow {
    const columns = this.tables.get(row.tableId)?.columns ?? [];
    const values: Record<string, JsonValue> = {};
    for (const c of columns)
      if (Object.prototype.hasOwnProperty.call(row.values, c.name)) values[c.name] = row.values[c.name];
    return copy({ ...row, values });
  }
}

/** How PostgreSQL's `->>` reads a JSON value as text. */
const asText = (v: JsonValue): string => (typeof v === 'string' ? v : JSON.stringify(v));
