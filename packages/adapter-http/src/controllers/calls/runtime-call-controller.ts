import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CALL_MESSAGES, describeInvalidTransition } from '@voiceplane/domain';
import {
  AcceptInboundCall, CallEventAnswer, CallEventRefusal, CallRepository, Clock, RecordCallEvent, TOKENS,
} from '@voiceplane/application';
import type { Result } from '@voiceplane/domain';
import { fail, parse, pathId, reply } from '../../pipeline/responses';
import type { RouteDoc } from '../../openapi/route-doc';
import { parseRuntimeEvent, RuntimeEventBody, RuntimeInboundBody } from './call-body';
import { presentEventAnswer } from './call-presenters';

const NOT_FOUND = { message: CALL_MESSAGES.notFound };

/** The routes of RuntimeCallController as the OpenAPI document describes them. */
export const runtimeCallRouteDocs: readonly RouteDoc[] = [
  { method: 'post', path: '/api/runtime/calls/inbound', summary: 'An inbound call reached a number or trunk', tag: 'Runtime', auth: 'runtime', body: RuntimeInboundBody, success: 201 },
  { method: 'get', path: '/api/runtime/calls/:id/config', summary: 'Configuration of a call being placed or answered', tag: 'Runtime', auth: 'runtime' },
  { method: 'post', path: '/api/runtime/calls/:id/events', summary: 'Lifecycle event of a call (idempotent by event_id)', tag: 'Runtime', auth: 'runtime', body: RuntimeEventBody },
];

/** Ends a refused event with its answer: 404 for an unknown call, 409 for a transition the call cannot make. */
export function answerOrFail(outcome: Result<CallEventAnswer, CallEventRefusal>, notFound: object): CallEventAnswer {
  if (outcome.ok) return outcome.value;
  if (outcome.error.code === 'call_not_found') fail(404, notFound);
  fail(409, { message: describeInvalidTransition(outcome.error) });
}

/** The voice-runtime ingress (CONTRACT §7.5); the pipeline has checked the runtime token. */
@Controller('/api/runtime/calls')
export class RuntimeCallController {
  constructor(
    @inject(TOKENS.AcceptInboundCall) private readonly inbound: AcceptInboundCall,
    @inject(TOKENS.RecordCallEvent) private readonly events: RecordCallEvent,
    @inject(TOKENS.CallRepository) private readonly calls: CallRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Post('/inbound')
  async accept(@Request() req: ExpressRequest) {
    const body = parse(RuntimeInboundBody, req.body);
    const accepted = await this.inbound.execute({ to: body.to, from: body.from, trunkId: body.trunk_id ?? null, providerCallId: body.provider_call_id ?? null });
    if (!accepted.ok) {
      if (accepted.error === 'insufficient_balance') fail(402, { message: CALL_MESSAGES.insufficientBalance });
      fail(404, { message: CALL_MESSAGES.noInboundAssistant });
    }
    return reply(201, { call_id: accepted.value.callId, config: accepted.value.config });
  }

  @Get('/:id/config')
  async config(@Params({ name: 'id' }) id: string) {
    const call = await this.calls.findById(pathId(id, NOT_FOUND));
    if (call === null) fail(404, NOT_FOUND);
    return reply(200, { call_id: call.id, config: call.runtimeConfig });
  }

  @Post('/:id/events')
  async event(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const callId = pathId(id, NOT_FOUND);
    const report = parseRuntimeEvent(req.body, this.clock.now());
    return reply(200, presentEventAnswer(answerOrFail(await this.events.record(callId, report), NOT_FOUND), true));
  }
}
