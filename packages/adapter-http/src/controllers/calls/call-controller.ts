import { Controller, Delete, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CallQueries, DeleteCall, MakeCall, TOKENS } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { pathId, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import { Doc } from '../../openapi/route-doc';
import { CallListQuery, MakeCallBody, parseCallList, parseMakeCall } from './call-body';
import { presentCall, presentCallSummary } from './call-presenters';
import { CALL_ANSWERS, CALL_NOT_FOUND, DELETE_CALL_ANSWERS, INVALID_PHONE, MAKE_CALL_ANSWERS } from './call-answers';
import { CALL_MESSAGES } from './call-messages';

@Controller('/api/user')
export class CallController {
  constructor(
    @inject(TOKENS.MakeCall) private readonly makeCall: MakeCall,
    @inject(TOKENS.CallQueries) private readonly calls: CallQueries,
    @inject(TOKENS.DeleteCall) private readonly deletion: DeleteCall,
  ) {}

  @Doc({ summary: 'Place an outbound call with an assistant', tag: 'Calls', body: MakeCallBody, success: 200 })
  @Post('/make_call')
  async make(@Request() req: ExpressRequest) {
    const input = parseMakeCall(req.body, () => refuse(INVALID_PHONE));
    return reply(
      req,
      () => this.makeCall.execute({ userId: principalOf(req).userId, ...input }),
      (placed) =>
        placed.ok
          ? {
              status: 200,
              body: { message: CALL_MESSAGES.initiated, call_id: placed.value.callId, status: 'initiated' },
            }
          : answerFor(MAKE_CALL_ANSWERS, placed.error),
    );
  }

  @Doc({ summary: 'List calls, newest first, with filters', tag: 'Calls', query: CallListQuery })
  @Get('/calls')
  async list(@Request() req: ExpressRequest) {
    const { query, filter, matchesNothing } = parseCallList(req.query);
    const page = pageOf(query);
    const result = matchesNothing
      ? { items: [], total: 0 }
      : await this.calls.list(principalOf(req).userId, filter, page);
    return reply(200, pageEnvelope(result.items.map(presentCallSummary), result.total, page.page, page.perPage));
  }

  @Doc({ summary: 'Get a call with transcript and tool calls', tag: 'Calls' })
  @Get('/calls/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.calls.get(principalOf(req).userId, pathId(id, CALL_NOT_FOUND));
    if (!found.ok) refuse(CALL_ANSWERS, found.error);
    const { call, toolCalls, report } = found.value;
    return reply(200, { data: presentCall(call, toolCalls, report) });
  }

  @Doc({
    summary: 'Delete an ended call with its transcript, recording and tool log (charges stay in the ledger)',
    tag: 'Calls',
  })
  @Delete('/calls/:id')
  async remove(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const deleted = await this.deletion.execute(principalOf(req).userId, pathId(id, CALL_NOT_FOUND));
    if (!deleted.ok) refuse(DELETE_CALL_ANSWERS, deleted.error);
    return reply(200, { message: CALL_MESSAGES.deleted });
  }
}
