import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { ManageTools, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageHeaders } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { CreateToolBody, parseToolBody, ToolFieldsBody, ToolListQuery, withToolDefaults } from './tool-body';
import { presentTool } from './tool-presenters';
import { TOOL_ANSWERS, TOOL_NOT_FOUND, TOOL_SUCCESS } from './tool-answers';

const BARE_LIST_PAGE = 100;

/** Tool management: the body's field rules here, the plan and ownership in ManageTools. */
@Controller('/api/user/tools')
export class ToolController {
  constructor(
    @inject(TOKENS.ManageTools) private readonly tools: ManageTools,
    @inject(TOKENS.TargetUrlPolicy) private readonly policy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'Create a mid-call http tool', tag: 'Tools', body: CreateToolBody, success: 201 })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const fields = withToolDefaults(parseToolBody(req.body, 'create', this.policy));
    return reply(
      req,
      () => this.tools.create(principalOf(req), fields),
      (created) =>
        created.ok
          ? { status: 201, body: { message: TOOL_SUCCESS.created, data: presentTool(created.value) } }
          : answerFor(TOOL_ANSWERS, created.error),
    );
  }

  /**
   * A bare array, as Famulor's reference shows it and the MCP server's output schema declares it. Without paging
   * parameters a page holds 100 tools (more than a plan allows); the page's place is in `X-Total-Count` and `Link`.
   */
  @Doc({
    summary: 'List tools, newest first, filter by type (bare array; paging in the Link header)',
    tag: 'Tools',
    query: ToolListQuery,
  })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const query = parse(ToolListQuery, req.query);
    const page = { page: query.page ?? 1, perPage: query.per_page ?? BARE_LIST_PAGE };
    const result = await this.tools.list(principalOf(req).userId, page, query.type);
    return reply(200, result.items.map(presentTool), pageHeaders('/api/user/tools', req.query, result.total, page));
  }

  @Doc({ summary: 'Get a tool (bare object)', tag: 'Tools' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const tool = await this.tools.get(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (!tool.ok) refuse(TOOL_ANSWERS, tool.error);
    return reply(200, presentTool(tool.value));
  }

  @Doc({ summary: 'Update a tool (any subset; arrays replace)', tag: 'Tools', body: ToolFieldsBody })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const tool = await this.tools.update(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND), (existing) =>
      parseToolBody(req.body, 'update', this.policy, existing),
    );
    if (!tool.ok) refuse(TOOL_ANSWERS, tool.error);
    return reply(200, { message: TOOL_SUCCESS.updated, data: presentTool(tool.value) });
  }

  @Doc({ summary: 'Delete a tool and detach it from every assistant', tag: 'Tools' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.tools.delete(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (!deleted.ok) refuse(TOOL_ANSWERS, deleted.error);
    return reply(200, { message: TOOL_SUCCESS.deleted });
  }
}
