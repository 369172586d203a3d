import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageFolders, TOKENS } from '@voiceplane/application';
import { PageQuery } from '../../validation';
import { Doc } from '../../openapi/route-doc';
import { CreateFolderBody, FolderRoutes, UpdateFolderBody } from './folder-routes';

const tag = 'Labels';

/** Labels: the body's shape here, name uniqueness and ownership in ManageFolders. */
@Controller('/api/user')
export class LabelController {
  private readonly routes: FolderRoutes;

  constructor(@inject(TOKENS.ManageLabels) labels: ManageFolders) {
    this.routes = new FolderRoutes(labels, 'Label');
  }

  @Doc({ summary: 'Create a label', tag, body: CreateFolderBody, success: 201 })
  @Post('/label')
  create(@Request() req: ExpressRequest) {
    return this.routes.create(req);
  }

  @Doc({ summary: 'List labels by name', tag, query: PageQuery })
  @Get('/labels')
  list(@Request() req: ExpressRequest) {
    return this.routes.list(req);
  }

  @Doc({ summary: 'Rename or recolor a label', tag, body: UpdateFolderBody })
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
