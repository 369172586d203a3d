import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { TOKENS, ToolRepository } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { answer } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import type { RouteDoc } from '../../openapi/route-doc';
import { CreateToolBody, parseToolBody, ToolFieldsBody, ToolListQuery, withToolDefaults } from './tool-body';
import { presentTool } from './tool-presenters';
import { TOOL_ANSWERS, TOOL_NOT_FOUND } from './tool-answers';

/** The routes of ToolController as the OpenAPI document describes them. */
export const toolRouteDocs: readonly RouteDoc[] = [
  { method: 'post', path: '/api/user/tools', summary: 'Create a mid-call http tool', tag: 'Tools', body: CreateToolBody, success: 201 },
  { method: 'get', path: '/api/user/tools', summary: 'List tools, newest first (filter by type)', tag: 'Tools', query: ToolListQuery },
  { method: 'get', path: '/api/user/tools/:id', summary: 'Get a tool', tag: 'Tools' },
  { method: 'put', path: '/api/user/tools/:id', summary: 'Update a tool (any subset; arrays replace)', tag: 'Tools', body: ToolFieldsBody },
  { method: 'delete', path: '/api/user/tools/:id', summary: 'Delete a tool and detach it from every assistant', tag: 'Tools' },
];

/** CRUD: plain persistence behind field rules, no use case in between. */
@Controller('/api/user/tools')
export class ToolController {
  constructor(
    @inject(TOKENS.ToolRepository) private readonly tools: ToolRepository,
    @inject(TOKENS.TargetUrlPolicy) private readonly policy: TargetUrlPolicy,
  ) {}

  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const principal = principalOf(req);
    const fields = withToolDefaults(parseToolBody(req.body, 'create', this.policy));
    const limit = principal.plan.max_mid_call_tools;
    const tool = await this.tools.createWithinLimit(principal.userId, fields, limit);
    if (tool === null) answer(TOOL_ANSWERS, { code: 'plan_limit', limit });
    return reply(201, { message: 'Tool created successfully', data: presentTool(tool) });
  }

  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const query = parse(ToolListQuery, req.query);
    const page = pageOf(query);
    const result = await this.tools.list(principalOf(req).userId, page, query.type);
    return reply(200, pageEnvelope(result.items.map(presentTool), result.total, page.page, page.perPage));
  }

  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const tool = await this.tools.findForUser(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (tool === null) answer(TOOL_ANSWERS, 'tool_not_found');
    return reply(200, { data: presentTool(tool) });
  }

  @Put('/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = principalOf(req).userId;
    const existing = await this.tools.findForUser(userId, pathId(id, TOOL_NOT_FOUND));
    if (existing === null) answer(TOOL_ANSWERS, 'tool_not_found');
    const changes = parseToolBody(req.body, 'update', this.policy, existing);
    const tool = await this.tools.update(userId, existing.id, changes);
    if (tool === null) answer(TOOL_ANSWERS, 'tool_not_found');
    return reply(200, { message: 'Tool updated successfully', data: presentTool(tool) });
  }

  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.tools.delete(principalOf(req).userId, pathId(id, TOOL_NOT_FOUND));
    if (!deleted) answer(TOOL_ANSWERS, 'tool_not_found');
    return reply(200, { message: 'Tool deleted successfully' });
  }
}
