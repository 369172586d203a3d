import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CallQueries, MakeCall, TOKENS } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { answer, answerFor, refuse } from '../../pipeline/answers';
import { answerOutcome } from '../../pipeline/idempotency';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { CallListQuery, MakeCallBody, parseCallList, parseMakeCall } from './call-body';
import { presentCall, presentCallSummary } from './call-presenters';
import { CALL_ANSWERS, CALL_NOT_FOUND, INVALID_PHONE, MAKE_CALL_ANSWERS } from './call-answers';
import { CALL_MESSAGES } from './call-messages';

@Controller('/api/user')
export class CallController {
  constructor(
    @inject(TOKENS.MakeCall) private readonly makeCall: MakeCall,
    @inject(TOKENS.CallQueries) private readonly calls: CallQueries,
  ) {}

  @Doc({ summary: 'Place an outbound call with an assistant', tag: 'Calls', body: MakeCallBody, success: 200 })
  @Post('/make_call')
  async make(@Request() req: ExpressRequest) {
    const input = parseMakeCall(req.body, () => refuse(INVALID_PHONE));
    return answerOutcome(req, () => this.makeCall.execute({ userId: principalOf(req).userId, ...input }), (placed) => (placed.ok
      ? { status: 200, body: { message: CALL_MESSAGES.initiated, call_id: placed.value.callId, status: 'initiated' } }
      : answerFor(MAKE_CALL_ANSWERS, placed.error)));
  }

  @Doc({ summary: 'List calls, newest first, with filters', tag: 'Calls', query: CallListQuery })
  @Get('/calls')
  async list(@Request() req: ExpressRequest) {
    const { query, from, to } = parseCallList(req.query);
    const page = pageOf(query);
    const result = await this.calls.list(principalOf(req).userId, {
      assistantId: query.assistant_id, status: query.status, direction: query.direction, channel: query.channel,
      customerPhone: query.customer_phone, automationRunId: query.automation_run_id, campaignId: query.campaign_id, from, to,
    }, page);
    return reply(200, pageEnvelope(result.items.map(presentCallSummary), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Get a call with transcript and tool calls', tag: 'Calls' })
  @Get('/calls/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.calls.get(principalOf(req).userId, pathId(id, CALL_NOT_FOUND));
    if (!found.ok) answer(CALL_ANSWERS, found.error);
    const { call, toolCalls, report } = found.value;
    return reply(200, { data: presentCall(call, toolCalls, report) });
  }
}
