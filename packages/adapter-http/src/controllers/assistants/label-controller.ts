import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageGroups, TOKENS } from '@voiceplane/application';
import { PageQuery } from '../../validation';
import type { RouteDoc } from '../../openapi/route-doc';
import { CreateGroupBody, GroupRoutes, UpdateGroupBody } from './group-routes';

const tag = 'Labels';
/** The routes of LabelController as the OpenAPI document describes them. */
export const labelRouteDocs: readonly RouteDoc[] = [
  { method: 'post', path: '/api/user/label', summary: 'Create a label', tag, body: CreateGroupBody, success: 201 },
  { method: 'get', path: '/api/user/labels', summary: 'List labels by name', tag, query: PageQuery },
  { method: 'put', path: '/api/user/label/:id', summary: 'Rename or recolor a label', tag, body: UpdateGroupBody },
  { method: 'delete', path: '/api/user/label/:id', summary: 'Delete a label; it is detached from its assistants', tag },
];

/** Labels: the body's shape here, name uniqueness and ownership in ManageGroups. */
@Controller('/api/user')
export class LabelController {
  private readonly routes: GroupRoutes;

  constructor(@inject(TOKENS.ManageLabels) labels: ManageGroups) {
    this.routes = new GroupRoutes(labels, 'Label');
  }

  @Post('/label')
  create(@Request() req: ExpressRequest) {
    return this.routes.create(req);
  }

  @Get('/labels')
  list(@Request() req: ExpressRequest) {
    return this.routes.list(req);
  }

  @Put('/label/:id')
  update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.update(req, id);
  }

  @Delete('/label/:id')
  remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.remove(req, id);
  }
}
