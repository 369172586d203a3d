import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AssistantGroupRepository, TOKENS } from '@voiceplane/application';
import { PageQuery } from '../../validation';
import { Doc } from '../../openapi/route-doc';
import { CreateGroupBody, GroupRoutes, UpdateGroupBody } from './group-routes';

const tag = 'Labels';

/** Plain CRUD over the label store. */
@Controller('/api/user')
export class LabelController {
  private readonly routes: GroupRoutes;

  constructor(@inject(TOKENS.LabelRepository) labels: AssistantGroupRepository) {
    this.routes = new GroupRoutes(labels, 'Label');
  }

  @Doc({ summary: 'Create a label', tag, body: CreateGroupBody, success: 201 })
  @Post('/label')
  create(@Request() req: ExpressRequest) {
    return this.routes.create(req);
  }

  @Doc({ summary: 'List labels by name', tag, query: PageQuery })
  @Get('/labels')
  list(@Request() req: ExpressRequest) {
    return this.routes.list(req);
  }

  @Doc({ summary: 'Rename or recolor a label', tag, body: UpdateGroupBody })
  @Put('/label/:id')
  update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.update(req, id);
  }

  @Doc({ summary: 'Delete a label; it is detached from its assistants', tag })
  @Delete('/label/:id')
  remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.remove(req, id);
  }
}
