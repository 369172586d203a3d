import { Controller, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AutomationEngine, AutomationRunRepository, Clock, ConnectionRepository, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { Str } from '../../validation';
import { presentConnection, presentRunDetail } from './automation-presenters';
import { isPublicId, RUN_NOT_PAUSED, SANDBOX_NOT_FOUND } from './automation-answers';


export class ConnectionStatusBody {
  @Str({ required: true, enum: ['connected', 'broken'] }) status!: 'connected' | 'broken';
}

/** S11 and S12: bound whenever any provider is the sandbox (D3). */
@Controller('/api/sandbox/automate')
export class SandboxAutomationController {
  constructor(
    @inject(TOKENS.AutomationRunRepository) private readonly runs: AutomationRunRepository,
    @inject(TOKENS.AutomationEngine) private readonly engine: AutomationEngine,
    @inject(TOKENS.ConnectionRepository) private readonly connections: ConnectionRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: 'S11: resume a paused run now and wait for it', tag: 'Sandbox' })
  @Post('/runs/:run_id/resume-now')
  async resumeNow(@Request() req: ExpressRequest, @Params({ name: 'run_id' }) runId: string) {
    const found = isPublicId(runId) ? await this.runs.locate(principalOf(req).userId, runId) : null;
    if (found === null) refuse(SANDBOX_NOT_FOUND);
    if (found.run.status !== 'PAUSED') refuse(RUN_NOT_PAUSED);
    const resumed = await this.engine.resume(found.automationId, runId, { early: true });
    if (resumed === null) refuse(RUN_NOT_PAUSED);
    return reply(200, { ok: true, run: presentRunDetail(resumed, this.clock.now()) });
  }

  @Doc({ summary: "S12: set a connection's status", tag: 'Sandbox', body: ConnectionStatusBody })
  @Put('/connections/:id/status')
  async connectionStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = principalOf(req).userId;
    const connection = await this.connections.find(userId, pathId(id, SANDBOX_NOT_FOUND));
    if (connection === null) refuse(SANDBOX_NOT_FOUND);
    const body = parse(ConnectionStatusBody, req.body);
    await this.connections.recordCheck(connection.id, body.status, body.status === 'broken' ? 'Set broken by the sandbox.' : null, this.clock.now());
    return reply(200, { ok: true, data: presentConnection((await this.connections.find(userId, connection.id)) ?? connection) });
  }
}
