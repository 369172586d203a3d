import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Clock, RetryRun, RunQueries, RunsRequest, TOKENS } from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { validateDto } from '../../validation';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { RetryBody, RunsQuery } from './automation-bodies';
import {
  AUTOMATION_NOT_FOUND,
  invalidShape,
  isPublicId,
  RETRY_ANSWERS,
  RUNS_ANSWERS,
  RUNS_AUTOMATION_NOT_FOUND,
} from './automation-answers';
import { presentRunDetail, presentRunSummary } from './automation-presenters';

/** `GET /api/user/automate/flows/{id}/runs` (fixed) and the retry of one. */
@Controller('/api/user/automate/flows')
export class AutomationRunController {
  constructor(
    @inject(TOKENS.RunQueries) private readonly runs: RunQueries,
    @inject(TOKENS.RetryRun) private readonly retryRun: RetryRun,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: "An automation's runs, newest first, or one run's detail", tag: 'Automations', query: RunsQuery })
  @Get('/:id/runs')
  async list(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    if (!isPublicId(id)) refuse(RUNS_AUTOMATION_NOT_FOUND);
    const requestOf = (): RunsRequest => {
      const query =
        typeof req.query.run_id === 'string' && req.query.run_id !== ''
          ? { run_id: req.query.run_id }
          : parse(RunsQuery, req.query);
      if (query.run_id !== undefined) return { runId: isPublicId(query.run_id) ? query.run_id : null };
      return { limit: query.limit };
    };
    const result = await this.runs.read(principalOf(req).userId, id, requestOf);
    if (!result.ok) refuse(RUNS_ANSWERS, result.error);
    const now = this.clock.now();
    const view = result.value;
    return view.kind === 'run'
      ? reply(200, { run: presentRunDetail(view.run, now) })
      : reply(200, { runs: view.runs.map((r) => presentRunSummary(r, now)) });
  }

  @Doc({ summary: 'Retry a failed run on the live version', tag: 'Automations', body: RetryBody, success: 201 })
  @Post('/:id/runs/:run_id/retry')
  async retry(
    @Request() req: ExpressRequest,
    @Params({ name: 'id' }) id: string,
    @Params({ name: 'run_id' }) runId: string,
  ) {
    if (!isPublicId(id)) refuse(AUTOMATION_NOT_FOUND);
    const shape = validateDto(RetryBody, req.body ?? {});
    if (!shape.ok) refuse(invalidShape(shape.errors));
    const body = shape.value;
    const retry = () =>
      this.retryRun.execute(
        principalOf(req).userId,
        id,
        isPublicId(runId) ? runId : '',
        body.confirm_side_effects === true,
      );
    return reply(req, retry, (result) =>
      result.ok
        ? { status: 201, body: { run: presentRunDetail(result.value, this.clock.now()) } }
        : answerFor(RETRY_ANSWERS, result.error),
    );
  }
}
