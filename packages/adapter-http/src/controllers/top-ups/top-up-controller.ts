import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TopUpStatus, TOP_UP_STATUSES } from '@voiceplane/domain';
import { StartTopUp, TOKENS, TopUpQueries } from '@voiceplane/application';
import { Num, PageQuery, pageOf, Str, ListFilters } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { presentTopUp } from './presenters';
import { START_TOP_UP_ANSWERS, TOP_UP_NOT_FOUND, TOP_UP_READ_ANSWERS } from './top-up-answers';

class TopUpBody {
  // Range and cents are the domain's rules (amount-rules), worded by the answer table.
  @Num({ required: true, description: 'USD, 5–10000, at most 2 decimals', example: 50 }) amount!: number;
}

@ListFilters()
class TopUpListQuery extends PageQuery {
  @Str({ enum: TOP_UP_STATUSES }) status?: TopUpStatus;
}

/** Paid top-ups through the billing provider. */
@Controller('/api/user/billing/top-ups')
export class TopUpController {
  constructor(
    @inject(TOKENS.StartTopUp) private readonly start: StartTopUp,
    @inject(TOKENS.TopUpQueries) private readonly topUps: TopUpQueries,
  ) {}

  @Doc({
    summary: 'Start a paid top-up: the provider opens a checkout page',
    tag: 'Billing',
    body: TopUpBody,
    success: 201,
  })
  @Post('/')
  async create(@Request() req: ExpressRequest) {
    const body = parse(TopUpBody, req.body);
    return reply(
      req,
      () => this.start.execute(principalOf(req).userId, body.amount),
      (started) =>
        started.ok
          ? { status: 201, body: { data: presentTopUp(started.value) } }
          : answerFor(START_TOP_UP_ANSWERS, started.error),
    );
  }

  @Doc({ summary: 'Top-ups, newest first', tag: 'Billing', query: TopUpListQuery })
  @Get('/')
  async list(@Request() req: ExpressRequest) {
    const q = parse(TopUpListQuery, req.query);
    const page = pageOf(q);
    const result = await this.topUps.list(principalOf(req).userId, page, q.status);
    return reply(200, pageEnvelope(result.items.map(presentTopUp), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'One top-up', tag: 'Billing' })
  @Get('/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.topUps.get(principalOf(req).userId, pathId(id, TOP_UP_NOT_FOUND));
    if (!found.ok) refuse(TOP_UP_READ_ANSWERS, found.error);
    return reply(200, { data: presentTopUp(found.value) });
  }
}
