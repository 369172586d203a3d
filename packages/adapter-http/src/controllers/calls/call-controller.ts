import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CALL_MESSAGES } from '@voiceplane/domain';
import { CallRepository, MakeCall, MakeCallRefusal, TOKENS, ToolInvocationLog } from '@voiceplane/application';
import { pageOf } from '../../validation';
import { fail, pathId, reply } from '../../pipeline/responses';
import { principalOf } from '../../pipeline/request-context';
import { pageEnvelope } from '../../presenters/format';
import type { RouteDoc } from '../../openapi/route-doc';
import { ASSISTANT_NOT_FOUND } from '../assistants/assistant-controller';
import { CallListQuery, MakeCallBody, parseCallList, parseMakeCall } from './call-body';
import { presentCall, presentCallSummary } from './call-presenters';

const NOT_FOUND = { message: CALL_MESSAGES.notFound };

/** One answer per business refusal of make_call (CONTRACT §7.2). */
const REFUSALS: Readonly<Record<MakeCallRefusal, readonly [number, string]>> = {
  assistant_not_found: [404, ASSISTANT_NOT_FOUND.message],
  not_outbound: [422, CALL_MESSAGES.outboundOnly],
  compliance_blocked: [403, CALL_MESSAGES.complianceBlocked],
  insufficient_balance: [422, CALL_MESSAGES.insufficientBalance],
  no_caller_line: [422, CALL_MESSAGES.noCallerLine],
  too_many_calls: [429, CALL_MESSAGES.tooManyCalls],
  dispatch_failed: [502, CALL_MESSAGES.dispatchFailed],
};

/** Calls of a ringing/talking burst end within a minute or so; a retry after that is likely to pass. */
const TOO_MANY_CALLS_RETRY_AFTER = 30;

/** The routes of CallController as the OpenAPI document describes them. */
export const callRouteDocs: readonly RouteDoc[] = [
  { method: 'post', path: '/api/user/make_call', summary: 'Place an outbound call with an assistant', tag: 'Calls', body: MakeCallBody, success: 200 },
  { method: 'get', path: '/api/user/calls', summary: 'List calls, newest first, with filters', tag: 'Calls', query: CallListQuery },
  { method: 'get', path: '/api/user/calls/:id', summary: 'Get a call with transcript and tool calls', tag: 'Calls' },
];

@Controller('/api/user')
export class CallController {
  constructor(
    @inject(TOKENS.MakeCall) private readonly makeCall: MakeCall,
    @inject(TOKENS.CallRepository) private readonly calls: CallRepository,
    @inject(TOKENS.ToolInvocationLog) private readonly toolCalls: ToolInvocationLog,
  ) {}

  @Post('/make_call')
  async make(@Request() req: ExpressRequest) {
    const input = parseMakeCall(req.body, () => fail(400, { message: CALL_MESSAGES.invalidPhone }));
    const placed = await this.makeCall.execute({ userId: principalOf(req).userId, ...input });
    if (!placed.ok) {
      const [status, message] = REFUSALS[placed.error];
      if (placed.error === 'too_many_calls') {
        fail(status, { message, retry_after: TOO_MANY_CALLS_RETRY_AFTER }, { 'Retry-After': String(TOO_MANY_CALLS_RETRY_AFTER) });
      }
      fail(status, { message });
    }
    return reply(200, { message: CALL_MESSAGES.initiated, call_id: placed.value.callId, status: 'initiated' });
  }

  @Get('/calls')
  async list(@Request() req: ExpressRequest) {
    const { query, from, to } = parseCallList(req.query);
    const page = pageOf(query);
    const result = await this.calls.list(principalOf(req).userId, {
      assistantId: query.assistant_id, status: query.status, direction: query.direction, channel: query.channel,
      customerPhone: query.customer_phone, from, to,
    }, page);
    return reply(200, pageEnvelope(result.items.map(presentCallSummary), result.total, page.page, page.perPage));
  }

  @Get('/calls/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const call = await this.calls.findOwned(principalOf(req).userId, pathId(id, NOT_FOUND));
    if (call === null) fail(404, NOT_FOUND);
    return reply(200, { data: presentCall(call, await this.toolCalls.listForCall(call.id)) });
  }
}
