import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AutomationRepository, AutomationRunRepository, Clock, RetryRun, TOKENS } from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { validateDto } from '../../validation';
import { answer, refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { RetryBody, RunsQuery } from './automation-bodies';
import { FLOW_NOT_FOUND, invalidShape, isPublicId, RETRY_ANSWERS, RUN_NOT_FOUND, RUNS_AUTOMATION_NOT_FOUND } from './automation-answers';
import { presentRunDetail, presentRunSummary } from './automation-presenters';

export const DEFAULT_RUNS_LIMIT = 10;

/** `GET /api/user/automate/flows/{id}/runs` (fixed) and the retry of one. */
@Controller('/api/user/automate/flows')
export class FlowRunController {
  constructor(
    @inject(TOKENS.AutomationRepository) private readonly automations: AutomationRepository,
    @inject(TOKENS.AutomationRunRepository) private readonly runs: AutomationRunRepository,
    @inject(TOKENS.RetryRun) private readonly retryRun: RetryRun,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: "An automation's runs, newest first, or one run's detail", tag: 'Automations', query: RunsQuery })
  @Get('/:id/runs')
  async list(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const automation = isPublicId(id) ? await this.automations.find(principalOf(req).userId, id) : null;
    if (automation === null) refuse(RUNS_AUTOMATION_NOT_FOUND);
    const query = typeof req.query.run_id === 'string' && req.query.run_id !== '' ? { run_id: req.query.run_id } : parse(RunsQuery, req.query);
    const now = this.clock.now();
    if (query.run_id !== undefined) {
      const run = isPublicId(query.run_id) ? await this.runs.find(automation.id, query.run_id) : null;
      if (run === null) refuse(RUN_NOT_FOUND);
      return reply(200, { run: presentRunDetail(run, now) });
    }
    const runs = await this.runs.list(automation.id, query.limit ?? DEFAULT_RUNS_LIMIT);
    return reply(200, { runs: runs.map((r) => presentRunSummary(r, now)) });
  }

  @Doc({ summary: 'Retry a failed run on the live version', tag: 'Automations', body: RetryBody, success: 201 })
  @Post('/:id/runs/:run_id/retry')
  async retry(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Params({ name: 'run_id' }) runId: string) {
    if (!isPublicId(id)) refuse(FLOW_NOT_FOUND);
    const shape = validateDto(RetryBody, req.body ?? {});
    if (!shape.ok) refuse(invalidShape(shape.errors));
    const body = shape.value;
    const result = await this.retryRun.execute(principalOf(req).userId, id, isPublicId(runId) ? runId : '', body.confirm_side_effects === true);
    if (!result.ok) answer(RETRY_ANSWERS, result.error);
    return reply(201, { run: presentRunDetail(result.value, this.clock.now()) });
  }
}
