import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageDataTables, TOKENS } from '@voiceplane/application';
import { isPlainObject, PageQuery, pageOf, validateDto } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { answer } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import type { RouteDoc } from '../../openapi/route-doc';
import { AddRowsBody, CreateTableBody, UpdateRowBody } from './automation-bodies';
import { DATA_TABLE_ANSWERS, ROW_NOT_FOUND, TABLE_NOT_FOUND } from './automation-answers';
import { presentRow, presentTable } from './automation-presenters';

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

/** Data tables: the body's shape here, the column rules and ownership in ManageDataTables. */
@Controller(BASE)
export class DataTableController {
  constructor(@inject(TOKENS.ManageDataTables) private readonly tables: ManageDataTables) {}

  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.tables.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentTable), result.total, page.page, page.perPage));
  }

  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const shape = validateDto(CreateTableBody, req.body);
    const input = { name: shape.ok ? shape.value.name : undefined, columns: isPlainObject(req.body) ? req.body.columns : undefined };
    const result = await this.tables.create(principalOf(req).userId, input, shape.ok ? {} : shape.errors);
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(201, { message: 'Table created successfully', data: presentTable(result.value) });
  }

  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.get(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND));
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { data: presentTable(result.value) });
  }

  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.delete(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND));
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: 'Table deleted successfully' });
  }

  @Get('/:id/rows')
  async rows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.rows(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), () => pageOf(parse(PageQuery, req.query)));
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    const { items, total, request } = result.value;
    return reply(200, pageEnvelope(items.map(presentRow), total, request.page, request.perPage));
  }

  @Post('/:id/rows')
  async addRows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const rowsOf = () => parse(AddRowsBody, req.body).rows.map((row) => row.values);
    const result = await this.tables.addRows(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), rowsOf);
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(201, { message: 'Rows added successfully', data: result.value.map(presentRow) });
  }

  @Put('/:id/rows/:row_id')
  async updateRow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Params({ name: 'row_id' }) rowId: string) {
    // The row id is read before the body: an unknown row answers before a malformed body does.
    const changeOf = () => ({ rowId: pathId(rowId, ROW_NOT_FOUND), values: parse(UpdateRowBody, req.body).values });
    const result = await this.tables.updateRow(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), changeOf);
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: 'Row updated successfully', data: presentRow(result.value) });
  }

  @Delete('/:id/rows/:row_id')
  async deleteRow(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Params({ name: 'row_id' }) rowId: string) {
    const result = await this.tables.deleteRow(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), () => pathId(rowId, ROW_NOT_FOUND));
    if (!result.ok) answer(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: 'Row deleted successfully' });
  }
}
