import { Controller, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { Clock, SandboxAutomationControls, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { Str } from '../../validation';
import { presentConnection, presentRunDetail } from './automation-presenters';
import { isPublicId, SANDBOX_AUTOMATION_ANSWERS, SANDBOX_NOT_FOUND } from './automation-answers';

export class ConnectionStatusBody {
  @Str({ required: true, enum: ['connected', 'broken'] }) status!: 'connected' | 'broken';
}

/** Sandbox resume-now and connection status: bound whenever any provider is the sandbox. */
@Controller('/api/sandbox/automate')
export class SandboxAutomationController {
  constructor(
    @inject(TOKENS.SandboxAutomationControls) private readonly controls: SandboxAutomationControls,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: 'Sandbox: resume a paused run now and wait for it', tag: 'Sandbox' })
  @Post('/runs/:run_id/resume-now')
  async resumeNow(@Request() req: ExpressRequest, @Params({ name: 'run_id' }) runId: string) {
    if (!isPublicId(runId)) refuse(SANDBOX_NOT_FOUND);
    const resumed = await this.controls.resumeNow(principalOf(req).userId, runId);
    if (!resumed.ok) refuse(SANDBOX_AUTOMATION_ANSWERS, resumed.error);
    return reply(200, { ok: true, run: presentRunDetail(resumed.value, this.clock.now()) });
  }

  @Doc({ summary: "Sandbox: set a connection's status", tag: 'Sandbox', body: ConnectionStatusBody })
  @Put('/connections/:id/status')
  async connectionStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const statusOf = () => parse(ConnectionStatusBody, req.body).status;
    const result = await this.controls.setConnectionStatus(
      principalOf(req).userId,
      pathId(id, SANDBOX_NOT_FOUND),
      statusOf,
    );
    if (!result.ok) refuse(SANDBOX_AUTOMATION_ANSWERS, result.error);
    return reply(200, { ok: true, data: presentConnection(result.value) });
  }
}
