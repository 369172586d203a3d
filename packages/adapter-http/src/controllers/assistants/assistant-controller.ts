import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ASSISTANT_STATUSES, ASSISTANT_TYPES, AssistantStatus, AssistantType } from '@voiceplane/domain';
import {
  AssistantFilter,
  AssistantQueries,
  ChangeAssistantStatus,
  DeleteAssistant,
  SaveAssistant,
  TOKENS,
} from '@voiceplane/application';
import { Id, PageQuery, pageOf, Str, ListFilters } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { AssistantFields, CreateAssistantBody, parseAssistantBody } from './assistant-body';
import { presentAssistant, presentAssistantSummary, presentOutboundAssistant } from './presenters';
import { ACTIVATION_ANSWERS, ASSISTANT_NOT_FOUND, ASSISTANT_SUCCESS, saveAnswers } from './assistant-answers';

/**
 * Both lists take the same filters: declared once, after the base's fields so the
 * page envelope's errors keep their order. (`any[]` is the constructor TypeScript demands of a mixin base.)
 */
function withAssistantFilters<Base extends new (...args: any[]) => object>(base: Base) {
  class Filtered extends base {
    @Str({ enum: ASSISTANT_TYPES }) type?: AssistantType;
    @Str({ enum: ASSISTANT_STATUSES }) status?: AssistantStatus;
    @Id() folder_id?: number;
    @Id() label_id?: number;
  }
  return Filtered;
}

@ListFilters()
class AssistantsQuery extends withAssistantFilters(Object) {}
@ListFilters()
class AssistantsPageQuery extends withAssistantFilters(PageQuery) {}

const filterOf = (q: AssistantsQuery): AssistantFilter => ({
  type: q.type,
  status: q.status,
  folderId: q.folder_id,
  labelId: q.label_id,
});

const tag = 'Assistants';

@Controller('/api/user')
export class AssistantController {
  constructor(
    @inject(TOKENS.SaveAssistant) private readonly save: SaveAssistant,
    @inject(TOKENS.ChangeAssistantStatus) private readonly statuses: ChangeAssistantStatus,
    @inject(TOKENS.DeleteAssistant) private readonly deletion: DeleteAssistant,
    @inject(TOKENS.AssistantQueries) private readonly assistants: AssistantQueries,
  ) {}

  @Doc({ summary: 'Create an assistant (status inactive)', tag, body: CreateAssistantBody, success: 201 })
  @Post('/assistant')
  async create(@Request() req: ExpressRequest) {
    const { changes, errors } = parseAssistantBody(req.body, 'create');
    return reply(
      req,
      () => this.save.create({ userId: principalOf(req).userId, changes, malformedFields: Object.keys(errors) }),
      (result) =>
        result.ok
          ? { status: 201, body: { message: ASSISTANT_SUCCESS.created, data: presentAssistantSummary(result.value) } }
          : answerFor(saveAnswers(errors), result.error),
    );
  }

  @Doc({
    summary: 'Update an assistant: only sent fields change; null clears; a mode change resets mode settings',
    tag,
    body: AssistantFields,
  })
  @Put('/assistant/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const assistantId = pathId(id, ASSISTANT_NOT_FOUND);
    const { changes, errors } = parseAssistantBody(req.body, 'update');
    const result = await this.save.update({
      userId: principalOf(req).userId,
      assistantId,
      changes,
      malformedFields: Object.keys(errors),
    });
    if (!result.ok) refuse(saveAnswers(errors), result.error);
    return reply(200, { message: ASSISTANT_SUCCESS.updated, data: presentAssistantSummary(result.value) });
  }

  @Doc({ summary: 'Get an assistant (full record)', tag })
  @Get('/assistant/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const result = await this.assistants.get(principalOf(req).userId, pathId(id, ASSISTANT_NOT_FOUND));
    if (!result.ok) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, { data: presentAssistant(result.value) });
  }

  /** A bare array: the n8n trigger dropdown reads nothing else. */
  @Doc({ summary: 'Every assistant, oldest first (bare array of full records)', tag, query: AssistantsQuery })
  @Get('/assistants')
  async listAll(@Request() req: ExpressRequest) {
    const assistants = await this.assistants.listAll(
      principalOf(req).userId,
      filterOf(parse(AssistantsQuery, req.query)),
    );
    return reply(200, assistants.map(presentAssistant));
  }

  @Doc({ summary: 'List assistants, newest first (page envelope of full records)', tag, query: AssistantsPageQuery })
  @Get('/assistants/get')
  async list(@Request() req: ExpressRequest) {
    const q = parse(AssistantsPageQuery, req.query);
    const page = pageOf(q);
    const result = await this.assistants.list(principalOf(req).userId, page, filterOf(q));
    return reply(200, pageEnvelope(result.items.map(presentAssistant), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Every outbound assistant, id ascending (bare array)', tag })
  @Get('/assistants/outbound')
  async outbound(@Request() req: ExpressRequest) {
    const assistants = await this.assistants.outbound(principalOf(req).userId);
    return reply(200, assistants.map(presentOutboundAssistant));
  }

  @Doc({ summary: 'Delete an assistant; calls in progress continue', tag })
  @Delete('/assistant/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.deletion.execute(principalOf(req).userId, pathId(id, ASSISTANT_NOT_FOUND));
    if (!deleted) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, { message: ASSISTANT_SUCCESS.deleted });
  }

  @Doc({ summary: 'Activate (takes inbound calls and chat replies)', tag })
  @Post('/assistant/:id/activate')
  async activate(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const assistantId = pathId(id, ASSISTANT_NOT_FOUND);
    return reply(
      req,
      () => this.statuses.activate(principalOf(req).userId, assistantId),
      (result) =>
        result.ok
          ? { status: 200, body: { message: ASSISTANT_SUCCESS.activated, data: presentAssistantSummary(result.value) } }
          : answerFor(ACTIVATION_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Deactivate', tag })
  @Post('/assistant/:id/deactivate')
  async deactivate(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const assistantId = pathId(id, ASSISTANT_NOT_FOUND);
    return reply(
      req,
      () => this.statuses.deactivate(principalOf(req).userId, assistantId),
      (result) =>
        result.ok
          ? {
              status: 200,
              body: { message: ASSISTANT_SUCCESS.deactivated, data: presentAssistantSummary(result.value) },
            }
          : ASSISTANT_NOT_FOUND,
    );
  }
}
