import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { InvokeToolForCall, TOKENS } from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { TOOL_CALL_ANSWERS } from './tool-answers';
import { Doc } from '../../openapi/route-doc';
import { RuntimeToolCallBody } from './tool-body';
import { presentToolCallResult } from './tool-presenters';

/** The voice runtime's gateway entry. Bound only where calls exist. */
@Controller('/api/runtime/tool-calls')
export class RuntimeToolCallController {
  constructor(@inject(TOKENS.InvokeToolForCall) private readonly invoke: InvokeToolForCall) {}

  @Doc({ summary: 'Run a mid-call tool for a live call', tag: 'Runtime', auth: 'runtime', body: RuntimeToolCallBody })
  @Post('/')
  async call(@Request() req: ExpressRequest) {
    const body = parse(RuntimeToolCallBody, req.body);
    const outcome = await this.invoke.execute({
      callId: body.call_id,
      toolId: body.tool_id,
      params: body.params ?? {},
      invocationId: body.invocation_id ?? null,
    });
    if (!outcome.ok) refuse(TOOL_CALL_ANSWERS, outcome.error);
    return reply(200, presentToolCallResult(outcome.value));
  }
}
