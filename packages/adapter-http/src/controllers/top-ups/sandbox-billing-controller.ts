import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TopUpOutcome } from '@voiceplane/domain';
import { SANDBOX_DECLINE_REASON, SettleTopUp, TOKENS } from '@voiceplane/application';
import { Str } from '../../validation';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { presentTopUp } from './presenters';
import { SANDBOX_NOT_FOUND, SANDBOX_SETTLE_ANSWERS } from './top-up-answers';

/** What a sandbox checkout's payment did: the outcomes a provider can report. */
const SANDBOX_OUTCOMES = ['succeeded', 'failed', 'expired'] as const;

class CompleteTopUpBody {
  @Str({ enum: SANDBOX_OUTCOMES, description: 'How the payment ends (default succeeded)' })
  outcome?: (typeof SANDBOX_OUTCOMES)[number];
}

/** Sandbox top-up `complete`: bound only while the billing provider is the sandbox. */
@Controller('/api/sandbox/billing/top-ups')
export class SandboxBillingController {
  constructor(@inject(TOKENS.SettleTopUp) private readonly settle: SettleTopUp) {}

  @Doc({ summary: 'Settle a pending sandbox top-up as the provider would', tag: 'Sandbox', body: CompleteTopUpBody })
  @Post('/:id/complete')
  async complete(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const topUpId = pathId(id, SANDBOX_NOT_FOUND);
    const body = parse(CompleteTopUpBody, req.body);
    const kind = body.outcome ?? 'succeeded';
    const outcome: TopUpOutcome = kind === 'failed' ? { kind, reason: SANDBOX_DECLINE_REASON } : { kind };
    const settled = await this.settle.execute(topUpId, outcome, { userId: principalOf(req).userId });
    if (!settled.ok) refuse(SANDBOX_SETTLE_ANSWERS, settled.error);
    return reply(200, { ok: true, data: presentTopUp(settled.value) });
  }
}
