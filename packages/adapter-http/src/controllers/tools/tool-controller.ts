import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { ManageTools, TOKENS } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { answer, answerFor } from '../../pipeline/answers';
import { answerOutcome } from '../../pipeline/idempotency';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { CreateToolBody, parseToolBody, ToolFieldsBody, ToolListQuery, withToolDefaults } from './tool-body';
import { presentTool } from './tool-presenters';
import { TOOL_ANSWERS, TOOL_NOT_FOUND, TOOL_SUCCESS } from './tool-answers';

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
    return answerOutcome(req, () => this.tools.create(principalOf(req), fields), (created) => (
      created.ok ? { status: 201, body: { message: TOOL_SUCCESS.created, data: presentTool(created.value) } } : answerFor(TOOL_ANSWERS, created.error)));
  }

  @Doc({ summary: 'List tools, newest first (filter by type)', tag: 'Tools', query: ToolListQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const query = parse(ToolListQuery, req.query);
    const page = pageOf(query);
    const result = await this.tools.list(principalOf(req).userId, page, query.type);
    return reply(200, pageEnvelope(result.items.map(presentTool), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Get a tool', tag: 'Tools' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const tool = await this.tools.get(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (!tool.ok) answer(TOOL_ANSWERS, tool.error);
    return reply(200, { data: presentTool(tool.value) });
  }

  @Doc({ summary: 'Update a tool (any subset; arrays replace)', tag: 'Tools', body: ToolFieldsBody })
  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const tool = await this.tools.update(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND), (existing) => parseToolBody(req.body, 'update', this.policy, existing));
    if (!tool.ok) answer(TOOL_ANSWERS, tool.error);
    return reply(200, { message: TOOL_SUCCESS.updated, data: presentTool(tool.value) });
  }

  @Doc({ summary: 'Delete a tool and detach it from every assistant', tag: 'Tools' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.tools.delete(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (!deleted.ok) answer(TOOL_ANSWERS, deleted.error);
    return reply(200, { message: TOOL_SUCCESS.deleted });
  }
}
