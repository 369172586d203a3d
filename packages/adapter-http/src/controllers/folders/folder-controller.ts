import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageFolders, TOKENS } from '@voiceplane/application';
import { PageQuery } from '../../validation';
import { Doc } from '../../openapi/route-doc';
import { CreateFolderBody, FolderRoutes, UpdateFolderBody } from './folder-routes';

const tag = 'Folders';

/** Folders: the body's shape here, name uniqueness and ownership in ManageFolders. */
@Controller('/api/user')
export class FolderController {
  private readonly routes: FolderRoutes;

  constructor(@inject(TOKENS.ManageFolders) folders: ManageFolders) {
    this.routes = new FolderRoutes(folders, 'Folder');
  }

  @Doc({ summary: 'Create a folder', tag, body: CreateFolderBody, success: 201 })
  @Post('/folder')
  create(@Request() req: ExpressRequest) {
    return this.routes.create(req);
  }

  @Doc({ summary: 'List folders by name', tag, query: PageQuery })
  @Get('/folders')
  list(@Request() req: ExpressRequest) {
    return this.routes.list(req);
  }

  @Doc({ summary: 'Rename or recolor a folder (alias PUT /api/user/folders/{id})', tag, body: UpdateFolderBody })
  @Put('/folder/:id')
  update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.update(req, id);
  }

  @Doc({ summary: 'Delete a folder; its assistants leave it (alias DELETE /api/user/folders/{id})', tag })
  @Delete('/folder/:id')
  remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    return this.routes.remove(req, id);
  }
}
