import type { Request as ExpressRequest } from 'express';
import { err, FOLDER_COLORS, FOLDER_NAME_MAX, FolderColor, ok } from '@voiceplane/domain';
import { FolderUpdateRefusal, ManageFolders } from '@voiceplane/application';
import { PageQuery, pageOf, Str, validateDto } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { AnswerTable, refuse, answerFor } from '../../pipeline/answers';
import { folderAnswers, folderSuccess } from '../assistants/assistant-answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { presentFolder } from '../assistants/presenters';

export class CreateFolderBody {
  @Str({ required: true, min: 1, max: FOLDER_NAME_MAX, description: 'Unique in the account, ignoring case' })
  name!: string;
  @Str({ enum: FOLDER_COLORS, nullable: true }) color?: FolderColor | null;
}

export class UpdateFolderBody {
  @Str({ min: 1, max: FOLDER_NAME_MAX }) name?: string;
  @Str({ enum: FOLDER_COLORS, nullable: true, description: 'null clears the color' }) color?: FolderColor | null;
}

/**
 * Folders and labels behave alike; each controller hands its routes to one of
 * these with its own use case and wording.
 */
export class FolderRoutes {
  private readonly answers: AnswerTable<FolderUpdateRefusal>;
  private readonly success: ReturnType<typeof folderSuccess>;

  constructor(
    private readonly folders: ManageFolders,
    noun: 'Folder' | 'Label',
  ) {
    this.answers = folderAnswers(noun);
    this.success = folderSuccess(noun);
  }

  async create(req: ExpressRequest) {
    const body = parse(CreateFolderBody, req.body);
    return reply(
      req,
      () => this.folders.create(principalOf(req).userId, { name: body.name, color: body.color ?? null }),
      (result) =>
        result.ok
          ? { status: 201, body: { message: this.success.created, data: presentFolder(result.value) } }
          : answerFor(this.answers, result.error),
    );
  }

  async list(req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.folders.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentFolder), result.total, page.page, page.perPage));
  }

  /** A missing folder answers 404 even when the body is invalid too. */
  async update(req: ExpressRequest, rawId: string) {
    const id = pathId(rawId, answerFor(this.answers, 'not_found'));
    const body = validateDto(UpdateFolderBody, req.body, { partial: true });
    const changes = body.ok ? ok({ name: body.value.name, color: body.value.color }) : err(body.errors);
    const result = await this.folders.update(principalOf(req).userId, id, changes);
    if (!result.ok) refuse(this.answers, result.error);
    return reply(200, { message: this.success.updated, data: presentFolder(result.value) });
  }

  async remove(req: ExpressRequest, rawId: string) {
    const result = await this.folders.delete(
      principalOf(req).userId,
      pathId(rawId, answerFor(this.answers, 'not_found')),
    );
    if (!result.ok) refuse(this.answers, result.error);
    return reply(200, { message: this.success.deleted });
  }
}
