import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageDataTables, TOKENS } from '@voiceplane/application';
import { isPlainObject, PageQuery, pageOf, validateDto } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { AddRowsBody, CreateTableBody, UpdateRowBody } from './automation-bodies';
import { DATA_TABLE_ANSWERS, DATA_TABLE_SUCCESS, ROW_NOT_FOUND, TABLE_NOT_FOUND } from './automation-answers';
import { presentRow, presentTable } from './automation-presenters';

const BASE = '/api/user/automate/tables';

/** Data tables: the body's shape here, the column rules and ownership in ManageDataTables. */
@Controller(BASE)
export class DataTableController {
  constructor(@inject(TOKENS.ManageDataTables) private readonly tables: ManageDataTables) {}

  @Doc({ summary: 'List data tables, newest first', tag: 'Automations', query: PageQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.tables.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentTable), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Create a data table (columns are fixed)', tag: 'Automations', body: CreateTableBody, success: 201 })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const shape = validateDto(CreateTableBody, req.body);
    const input = {
      name: shape.ok ? shape.value.name : undefined,
      columns: isPlainObject(req.body) ? req.body.columns : undefined,
    };
    return reply(
      req,
      () => this.tables.create(principalOf(req).userId, input, shape.ok ? {} : shape.errors),
      (result) =>
        result.ok
          ? { status: 201, body: { message: DATA_TABLE_SUCCESS.tableCreated, data: presentTable(result.value) } }
          : answerFor(DATA_TABLE_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Get a data table', tag: 'Automations' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.get(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND));
    if (!result.ok) refuse(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { data: presentTable(result.value) });
  }

  @Doc({ summary: 'Delete a data table and its rows', tag: 'Automations' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.delete(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND));
    if (!result.ok) refuse(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: DATA_TABLE_SUCCESS.tableDeleted });
  }

  @Doc({ summary: 'List rows, id ascending', tag: 'Automations', query: PageQuery })
  @Get('/:id/rows')
  async rows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.tables.rows(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), () =>
      pageOf(parse(PageQuery, req.query)),
    );
    if (!result.ok) refuse(DATA_TABLE_ANSWERS, result.error);
    const { items, total, request } = result.value;
    return reply(200, pageEnvelope(items.map(presentRow), total, request.page, request.perPage));
  }

  @Doc({ summary: 'Add 1–500 rows', tag: 'Automations', body: AddRowsBody, success: 201 })
  @Post('/:id/rows')
  async addRows(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const rowsOf = () => parse(AddRowsBody, req.body).rows.map((row) => row.values);
    return reply(
      req,
      () => this.tables.addRows(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), rowsOf),
      (result) =>
        result.ok
          ? { status: 201, body: { message: DATA_TABLE_SUCCESS.rowsAdded, data: result.value.map(presentRow) } }
          : answerFor(DATA_TABLE_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Change some values of a row', tag: 'Automations', body: UpdateRowBody })
  @Put('/:id/rows/:row_id')
  async updateRow(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'row_id' }) rowId: string,
  ) {
    // The row id is read before the body: an unknown row answers before a malformed body does.
    const changeOf = () => ({ rowId: pathId(rowId, ROW_NOT_FOUND), values: parse(UpdateRowBody, req.body).values });
    const result = await this.tables.updateRow(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), changeOf);
    if (!result.ok) refuse(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: DATA_TABLE_SUCCESS.rowUpdated, data: presentRow(result.value) });
  }

  @Doc({ summary: 'Delete a row', tag: 'Automations' })
  @Delete('/:id/rows/:row_id')
  async deleteRow(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'row_id' }) rowId: string,
  ) {
    const result = await this.tables.deleteRow(principalOf(req).userId, pathId(id, TABLE_NOT_FOUND), () =>
      pathId(rowId, ROW_NOT_FOUND),
    );
    if (!result.ok) refuse(DATA_TABLE_ANSWERS, result.error);
    return reply(200, { message: DATA_TABLE_SUCCESS.rowDeleted });
  }
}
