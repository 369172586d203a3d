import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { checkColumns, checkRowValues, DATA_TABLE_LIMITS, DataTable, FieldErrors, JsonObject } from '@voiceplane/domain';
import { DataTableRepository, TOKENS } from '@voiceplane/application';
import { isPlainObject, PageQuery, pageOf, validateDto } from '../../validation';
import { failValidation, parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { fieldErrors } from '../../pipeline/field-messages';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import type { RouteDoc } from '../../openapi/route-doc';
import { AddRowsBody, CreateTableBody, UpdateRowBody } from './automation-bodies';
import { ROW_NOT_FOUND, TABLE_FULL, TABLE_NOT_FOUND } from './automation-answers';
import { presentRow, presentTable } from './automation-presenters';
import { DATA_TABLE_MESSAGES } from './automation-messages';

const BASE = '/api/user/automate/tables';

export const dataTableRouteDocs: readonly RouteDoc[] = [
  { method: 'get', path: BASE, summary: 'List data tables, newest first', tag: 'Automations', query: PageQuery },
  { method: 'post', path: BASE, summary: 'Create a data table (columns are fixed)', tag: 'Automations', body: CreateTableBody, success: 201 },
  { method: 'get', path: `${BASE}/:id`, summary: 'Get a data table', tag: 'Automations' },
  { method: 'delete', path: `${BASE}/:id`, summary: 'Delete a data table and its rows', tag: 'Automations' },
  { method: 'get', path: `${BASE}/:id/rows`, summary: 'List rows, id ascending', tag: 'Automations', query: PageQuery },
  { method: 'post', path: `${BASE}/:id/rows`, summary: 'Add 1–500 rows', tag: 'Automations', body: AddRowsBody, success: 201 },
  { method: 'put', path: `${BASE}/:id/rows/:row_id`, summary: 'Change some values of a row', tag: 'Automations', body: UpdateRowBody },
  { method: 'delete', path: `${BASE}/:id/rows/:row_id`, summary: 'Delete a row', tag: 'Automations' },
];

/** Data tables: persistence behind the column rules. */
@Controller(BASE)
export class DataTableController {
  constructor(@inject(TOKENS.DataTableRepository) private readonly tables: DataTableRepository) {}

  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.tables.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentTable), result.total, page.page, page.perPage));
  }

  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const shape = validateDto(CreateTableBody, req.body);
    const errors: FieldErrors = shape.ok ? {} : { ...shape.errors };
    const columns = checkColumns(isPlainObject(req.body) ? req.body.columns : undefined);
    // The shapes' messages first; the domain adds what only it knows (name pattern, duplicates).
    for (const [key, messages] of Object.entries(fieldErrors(columns.problems, DATA_TABLE_MESSAGES))) if (!(key in errors)) errors[key] = messages;
    if (!shape.ok || Object.keys(errors).length > 0) failValidation(errors);
    const table = await this.tables.create(principalOf(req).userId, shape.value.name, columns.columns);
    if (table === 'name_taken') failValidation({ name: ['The name has already been taken.'] });
    return reply(201, { message: 'Table created successfully', data: presentTable(table) });
  }

  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return reply(200, { data: presentTable(await this.owned(req, id)) });
  }

  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!(await this.tables.delete(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND)))) refuse(TABLE_NOT_FOUND);
    return reply(200, { message: 'Table deleted successfully' });
  }

  @Get('/:id/rows')
  async rows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const table = await this.owned(req, id);
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.tables.listRows(table.id, page);
    return reply(200, pageEnvelope(result.items.map(presentRow), result.total, page.page, page.perPage));
  }

  @Post('/:id/rows')
  async addRows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const table = await this.owned(req, id);
    const body = parse(AddRowsBody, req.body);
    const errors: FieldErrors = {};
    const rows: JsonObject[] = body.rows.map((row, i) => {
      const checked = checkRowValues(table.columns, row.values, `rows.${i}.values`, false);
      Object.assign(errors, fieldErrors(checked.problems, DATA_TABLE_MESSAGES));
      return checked.values;
    });
    if (Object.keys(errors).length > 0) failValidation(errors);
    const added = await this.tables.addRows(table.id, rows, DATA_TABLE_LIMITS.rowsPerTable);
    if (added === 'table_full') refuse(TABLE_FULL);
    return reply(201, { message: 'Rows added successfully', data: added.map(presentRow) });
  }

  @Put('/:id/rows/:row_id')
  async updateRow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Params({ name: 'row_id' }) rowId: string) {
    const table = await this.owned(req, id);
    const row = pathId(rowId, ROW_NOT_FOUND);
    const body = parse(UpdateRowBody, req.body);
    const checked = checkRowValues(table.columns, body.values, 'values', true);
    if (Object.keys(checked.problems).length > 0) failValidation(fieldErrors(checked.problems, DATA_TABLE_MESSAGES));
    const updated = await this.tables.updateRow(table.id, row, checked.values);
    if (updated === null) refuse(ROW_NOT_FOUND);
    return reply(200, { message: 'Row updated successfully', data: presentRow(updated) });
  }

  @Delete('/:id/rows/:row_id')
  async deleteRow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Params({ name: 'row_id' }) rowId: string) {
    const table = await this.owned(req, id);
    if (!(await this.tables.deleteRow(table.id, pathId(rowId, ROW_NOT_FOUND)))) refuse(ROW_NOT_FOUND);
    return reply(200, { message: 'Row deleted successfully' });
  }

  private async owned(req: ExpressRequest, id: string): Promise<DataTable> {
    const table = await this.tables.find(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND));
    if (table === null) refuse(TABLE_NOT_FOUND);
    return table;
  }
}
