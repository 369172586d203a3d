import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import type { Result } from '@voiceplane/domain';
import {
  AcceptInboundCall,
  CallEventAnswer,
  CallEventRefusal,
  CallQueries,
  Clock,
  ManageDoNotCall,
  RecordCallEvent,
  TOKENS,
} from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, AnswerTable } from '../../pipeline/answers';
import { Doc } from '../../openapi/route-doc';
import { parseRuntimeEvent, RuntimeEventBody, RuntimeInboundBody } from './call-body';
import { presentEventAnswer } from './call-presenters';
import { CALL_ANSWERS, CALL_EVENT_ANSWERS, CALL_NOT_FOUND, INBOUND_CALL_ANSWERS } from './call-answers';

/** The answer of an accepted event; a refused one ends the request with the table's answer. */
export function acceptedEvent(
  outcome: Result<CallEventAnswer, CallEventRefusal>,
  answers: AnswerTable<CallEventRefusal>,
): CallEventAnswer {
  if (!outcome.ok) refuse(answers, outcome.error);
  return outcome.value;
}

/** The voice-runtime ingress; the pipeline has checked the runtime token. */
@Controller('/api/runtime/calls')
export class RuntimeCallController {
  constructor(
    @inject(TOKENS.AcceptInboundCall) private readonly inbound: AcceptInboundCall,
    @inject(TOKENS.RecordCallEvent) private readonly events: RecordCallEvent,
    @inject(TOKENS.CallQueries) private readonly calls: CallQueries,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ManageDoNotCall) private readonly doNotCall: ManageDoNotCall,
  ) {}

  @Doc({
    summary:
      "The customer asked not to be called again (the do_not_call built-in): their number joins the account's do-not-call list",
    tag: 'Runtime',
    auth: 'runtime',
  })
  @Post('/:id/do-not-call')
  async optOut(@Params({ name: 'id' }) id: string) {
    const listed = await this.doNotCall.addFromCall(pathId(id, CALL_NOT_FOUND));
    if (!listed.ok)
      refuse(
        {
          call_not_found: CALL_NOT_FOUND,
          list_full: { status: 422, body: { message: 'The do-not-call list can hold at most 100000 numbers.' } },
        },
        listed.error,
      );
    return reply(200, { message: 'Added to the do-not-call list.', added: listed.value });
  }

  @Doc({
    summary: 'An inbound call reached a number or trunk',
    tag: 'Runtime',
    auth: 'runtime',
    body: RuntimeInboundBody,
    success: 201,
  })
  @Post('/inbound')
  async accept(@Request() req: ExpressRequest) {
    const body = parse(RuntimeInboundBody, req.body);
    const accepted = await this.inbound.execute({
      to: body.to,
      from: body.from,
      trunkId: body.trunk_id ?? null,
      providerCallId: body.provider_call_id ?? null,
    });
    if (!accepted.ok) refuse(INBOUND_CALL_ANSWERS, accepted.error);
    return reply(201, { call_id: accepted.value.callId, config: accepted.value.config });
  }

  @Doc({ summary: 'Configuration of a call being placed or answered', tag: 'Runtime', auth: 'runtime' })
  @Get('/:id/config')
  async config(@Params({ name: 'id' }) id: string) {
    const found = await this.calls.runtimeConfig(pathId(id, CALL_NOT_FOUND));
    if (!found.ok) refuse(CALL_ANSWERS, found.error);
    return reply(200, { call_id: found.value.callId, config: found.value.config });
  }

  @Doc({
    summary: 'Lifecycle event of a call (idempotent by event_id)',
    tag: 'Runtime',
    auth: 'runtime',
    body: RuntimeEventBody,
  })
  @Post('/:id/events')
  async event(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const callId = pathId(id, CALL_NOT_FOUND);
    const report = parseRuntimeEvent(req.body, this.clock.now());
    return reply(
      200,
      presentEventAnswer(acceptedEvent(await this.events.record(callId, report), CALL_EVENT_ANSWERS), true),
    );
  }
}
