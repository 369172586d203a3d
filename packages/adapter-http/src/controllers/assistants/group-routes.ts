import type { Request as ExpressRequest } from 'express';
import { err, GROUP_COLORS, GROUP_NAME_MAX, GroupColor, ok } from '@voiceplane/domain';
import { GroupUpdateRefusal, ManageGroups } from '@voiceplane/application';
import { PageQuery, pageOf, Str, validateDto } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { AnswerTable, answer, answerFor } from '../../pipeline/answers';
import { answerOutcome } from '../../pipeline/idempotency';
import { groupAnswers, groupSuccess } from './assistant-answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { presentGroup } from './presenters';

export class CreateGroupBody {
  @Str({ required: true, min: 1, max: GROUP_NAME_MAX, description: 'Unique in the account, ignoring case' })
  name!: string;
  @Str({ enum: GROUP_COLORS, nullable: true }) color?: GroupColor | null;
}

export class UpdateGroupBody {
  @Str({ min: 1, max: GROUP_NAME_MAX }) name?: string;
  @Str({ enum: GROUP_COLORS, nullable: true, description: 'null clears the color' }) color?: GroupColor | null;
}

/**
 * Folders and labels behave alike; each controller hands its routes to one of
 * these with its own use case and wording.
 */
export class GroupRoutes {
  private readonly answers: AnswerTable<GroupUpdateRefusal>;
  private readonly success: ReturnType<typeof groupSuccess>;

  constructor(
    private readonly groups: ManageGroups,
    noun: 'Folder' | 'Label',
  ) {
    this.answers = groupAnswers(noun);
    this.success = groupSuccess(noun);
  }

  async create(req: ExpressRequest) {
    const body = parse(CreateGroupBody, req.body);
    return answerOutcome(
      req,
      () => this.groups.create(principalOf(req).userId, { name: body.name, color: body.color ?? null }),
      (result) =>
        result.ok
          ? { status: 201, body: { message: this.success.created, data: presentGroup(result.value) } }
          : answerFor(this.answers, result.error),
    );
  }

  async list(req: ExpressRequest) {
    const page = pageOf(parse(PageQuery, req.query));
    const result = await this.groups.list(principalOf(req).userId, page);
    return reply(200, pageEnvelope(result.items.map(presentGroup), result.total, page.page, page.perPage));
  }

  /** A missing group answers 404 even when the body is invalid too. */
  async update(req: ExpressRequest, rawId: string) {
    const id = pathId(rawId, answerFor(this.answers, 'not_found'));
    const body = validateDto(UpdateGroupBody, req.body, { partial: true });
    const changes = body.ok ? ok({ name: body.value.name, color: body.value.color }) : err(body.errors);
    const result = await this.groups.update(principalOf(req).userId, id, changes);
    if (!result.ok) answer(this.answers, result.error);
    return reply(200, { message: this.success.updated, data: presentGroup(result.value) });
  }

  async remove(req: ExpressRequest, rawId: string) {
    const result = await this.groups.delete(
      principalOf(req).userId,
      pathId(rawId, answerFor(this.answers, 'not_found')),
    );
    if (!result.ok) answer(this.answers, result.error);
    return reply(200, { message: this.success.deleted });
  }
}
