import { Controller, Delete, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  AutomationQueries,
  ManageAutomations,
  RestoreAutomation,
  TOKENS,
  UpdateAutomation,
} from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { pageOf } from '../../validation';
import { Doc } from '../../openapi/route-doc';
import { AutomationsQuery, readTemplateBody, UpdateAutomationBody } from './automation-bodies';
import {
  AUTOMATION_SUCCESS,
  ENABLE_ANSWERS,
  AUTOMATION_NOT_FOUND,
  isPublicId,
  RESTORE_ANSWERS,
  RUNS_AUTOMATION_NOT_FOUND,
  UPDATE_ANSWERS,
} from './automation-answers';
import { presentApplied, presentAutomation, presentVersion } from './automation-presenters';

const BASE = '/api/user/automate/flows';

@Controller(BASE)
export class AutomationController {
  constructor(
    @inject(TOKENS.AutomationQueries) private readonly queries: AutomationQueries,
    @inject(TOKENS.ManageAutomations) private readonly manage: ManageAutomations,
    @inject(TOKENS.UpdateAutomation) private readonly update: UpdateAutomation,
    @inject(TOKENS.RestoreAutomation) private readonly restorer: RestoreAutomation,
  ) {}

  @Doc({ summary: 'List automations, newest first', tag: 'Automations', query: AutomationsQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const query = parse(AutomationsQuery, req.query);
    const page = pageOf(query);
    const result = await this.queries.list(
      principalOf(req).userId,
      { status: query.status, templateKey: query.template_key, assistantId: query.assistant_id },
      page,
    );
    return reply(200, pageEnvelope(result.items.map(presentAutomation), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'One automation', tag: 'Automations' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const view = isPublicId(id) ? await this.queries.get(principalOf(req).userId, id) : null;
    if (view === null) refuse(RUNS_AUTOMATION_NOT_FOUND);
    return reply(200, { data: presentAutomation(view) });
  }

  @Doc({
    summary: 'New version: checked, tested, published when the test passes',
    tag: 'Automations',
    body: UpdateAutomationBody,
  })
  @Put('/:id')
  async put(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id)) refuse(AUTOMATION_NOT_FOUND);
    const principal = principalOf(req);
    // 404 comes before any check of the body.
    if ((await this.queries.get(principal.userId, id)) === null) refuse(AUTOMATION_NOT_FOUND);
    const { value: body, params, sample } = readTemplateBody(UpdateAutomationBody, req.body);
    const result = await this.update.execute({
      userId: principal.userId,
      plan: principal.plan,
      automationId: id,
      params,
      name: body.name ?? null,
      confirmSideEffects: body.confirm_side_effects === true,
      test: body.test ?? true,
      sample,
    });
    if (!result.ok) refuse(UPDATE_ANSWERS, result.error);
    return reply(200, presentApplied(result.value));
  }

  @Doc({ summary: 'Enable an automation (idempotent)', tag: 'Automations' })
  @Post('/:id/enable')
  async enable(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id)) refuse(AUTOMATION_NOT_FOUND);
    return reply(
      req,
      () => this.manage.enable(principalOf(req).userId, id),
      (result) =>
        result.ok
          ? { status: 200, body: { message: AUTOMATION_SUCCESS.enabled, data: presentAutomation(result.value) } }
          : answerFor(ENABLE_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Disable an automation (idempotent)', tag: 'Automations' })
  @Post('/:id/disable')
  async disable(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id)) refuse(AUTOMATION_NOT_FOUND);
    return reply(
      req,
      () => this.manage.disable(principalOf(req).userId, id),
      (disabled) =>
        disabled === null
          ? AUTOMATION_NOT_FOUND
          : { status: 200, body: { message: AUTOMATION_SUCCESS.disabled, data: presentAutomation(disabled) } },
    );
  }

  @Doc({ summary: 'Delete an automation, its tool, versions and runs', tag: 'Automations' })
  @Delete('/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id) || !(await this.manage.delete(principalOf(req).userId, id))) refuse(AUTOMATION_NOT_FOUND);
    return reply(200, { message: AUTOMATION_SUCCESS.deleted });
  }

  @Doc({ summary: "An automation's versions, newest first", tag: 'Automations' })
  @Get('/:id/versions')
  async versions(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = isPublicId(id) ? await this.queries.versions(principalOf(req).userId, id) : null;
    if (found === null) refuse(RUNS_AUTOMATION_NOT_FOUND);
    return reply(200, { data: found.versions.map((v) => presentVersion(v, found.automation.liveVersionId)) });
  }

  @Doc({ summary: 'Publish the previous version again as a new copy', tag: 'Automations' })
  @Post('/:id/restore')
  async restore(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id)) refuse(AUTOMATION_NOT_FOUND);
    return reply(
      req,
      () => this.restorer.execute(principalOf(req).userId, id),
      (result) => {
        if (!result.ok) return answerFor(RESTORE_ANSWERS, result.error);
        const { automation, restored, copy } = result.value;
        const body = {
          automation_id: automation.id,
          name: automation.name,
          status: automation.status,
          restored_version_id: restored.id,
          note: AUTOMATION_SUCCESS.restored(restored.number, copy.number, automation.status),
        };
        return { status: 200, body };
      },
    );
  }
}
