import {
  checkColumns,
  checkRowValues,
  DATA_TABLE_LIMITS,
  DataTable,
  DataTableProblem,
  err,
  FieldErrors,
  FieldProblems,
  hasFieldErrors,
  JsonObject,
  ok,
  Result,
  TableRow,
} from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { UnitOfWork } from '../ports';
import { DataTableRepository } from './ports';

/**
 * Values that break the table's column rules, under the field they came in: the request shape's
 * own messages, and the column rules' problems on the fields the shape left alone.
 */
export interface InvalidTableFields {
  readonly code: 'invalid_fields';
  readonly errors: FieldErrors;
  readonly problems: FieldProblems<DataTableProblem>;
}

const invalid = (errors: FieldErrors, problems: FieldProblems<DataTableProblem>): InvalidTableFields => ({
  code: 'invalid_fields',
  errors,
  problems,
});
const hasProblems = (problems: FieldProblems<DataTableProblem>) => Object.keys(problems).length > 0;

export type DataTableRefusal = 'table_not_found' | 'row_not_found' | 'name_taken' | 'table_full' | InvalidTableFields;

/** A row change as the request names it: which row and the values sent for it. */
export interface RowChange {
  readonly rowId: number;
  readonly values: unknown;
}

/**
 * An account's data tables: fixed columns, rows checked against them, at most
 * DATA_TABLE_LIMITS.rowsPerTable rows, another account's table never reached.
 * What a request carries past the table id comes as a function: it is read only once the table is
 * known to be the caller's, so a missing table answers before a malformed body does.
 */
export class ManageDataTables {
  constructor(
    private readonly tables: DataTableRepository,
    private readonly uow: UnitOfWork,
  ) {}

  list(userId: number, page: PageRequest): Promise<Page<DataTable>> {
    return this.tables.list(userId, page);
  }

  /**
   * `shapeErrors` are the request's own field problems; the column rules add what only they know
   * (name pattern, duplicates) on fields the shape left alone.
   */
  async create(
    userId: number,
    input: { readonly name: string | undefined; readonly columns: unknown },
    shapeErrors: FieldErrors,
  ): Promise<Result<DataTable, 'name_taken' | InvalidTableFields>> {
    const columns = checkColumns(input.columns);
    const problems = Object.fromEntries(Object.entries(columns.problems).filter(([key]) => !(key in shapeErrors)));
    if (hasFieldErrors(shapeErrors) || hasProblems(problems) || input.name === undefined)
      return err(invalid(shapeErrors, problems));
    const name = input.name;
    // Concludes in the table's own commit.
    return this.uow.transaction(
      async (): Promise<Result<DataTable, 'name_taken' | InvalidTableFields>> => {
        const table = await this.tables.create(userId, name, columns.columns);
        return table === 'name_taken' ? err('name_taken') : ok(table);
      },
      { concludes: true },
    );
  }

  async get(userId: number, id: number): Promise<Result<DataTable, 'table_not_found'>> {
    const table = await this.tables.find(userId, id);
    return table === null ? err('table_not_found') : ok(table);
  }

  async delete(userId: number, id: number): Promise<Result<true, 'table_not_found'>> {
    return (await this.tables.delete(userId, id)) ? ok(true) : err('table_not_found');
  }

  /** The page as read, with the request it answers. */
  async rows(
    userId: number,
    id: number,
    pageOf: () => PageRequest,
  ): Promise<Result<Page<TableRow> & { readonly request: PageRequest }, 'table_not_found'>> {
    const table = await this.tables.find(userId, id);
    if (table === null) return err('table_not_found');
    const request = pageOf();
    return ok({ ...(await this.tables.listRows(table.id, request)), request });
  }

  /** All rows or none: one bad value, or a table that would overflow, adds nothing. */
  async addRows(
    userId: number,
    id: number,
    rowsOf: () => readonly unknown[],
  ): Promise<Result<TableRow[], 'table_not_found' | 'table_full' | InvalidTableFields>> {
    const table = await this.tables.find(userId, id);
    if (table === null) return err('table_not_found');
    const problems: FieldProblems<DataTableProblem> = {};
    const rows: JsonObject[] = rowsOf().map((row, i) => {
      const checked = checkRowValues(table.columns, row, `rows.${i}.values`, false);
      Object.assign(problems, checked.problems);
      return checked.values;
    });
    if (hasProblems(problems)) return err(invalid({}, problems));
    // Concludes in the rows' own commit.
    return this.uow.transaction(
      async (): Promise<Result<TableRow[], 'table_not_found' | 'table_full' | InvalidTableFields>> => {
        const added = await this.tables.addRows(table.id, rows, DATA_TABLE_LIMITS.rowsPerTable);
        return added === 'table_full' ? err('table_full') : ok(added);
      },
      { concludes: true },
    );
  }

  /** Only the values sent change; the others keep theirs. */
  async updateRow(
    userId: number,
    id: number,
    changeOf: () => RowChange,
  ): Promise<Result<TableRow, 'table_not_found' | 'row_not_found' | InvalidTableFields>> {
    const table = await this.tables.find(userId, id);
    if (table === null) return err('table_not_found');
    const change = changeOf();
    const checked = checkRowValues(table.columns, change.values, 'values', true);
    if (hasProblems(checked.problems)) return err(invalid({}, checked.problems));
    const updated = await this.tables.updateRow(table.id, change.rowId, checked.values);
    return updated === null ? err('row_not_found') : ok(updated);
  }

  async deleteRow(
    userId: number,
    id: number,
    rowOf: () => number,
  ): Promise<Result<true, 'table_not_found' | 'row_not_found'>> {
    const table = await this.tables.find(userId, id);
    if (table === null) return err('table_not_found');
    return (await this.tables.deleteRow(table.id, rowOf())) ? ok(true) : err('row_not_found');
  }
}
