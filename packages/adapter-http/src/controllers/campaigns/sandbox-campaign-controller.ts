import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { CampaignDialer, Clock, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { parseTimestamp, Str } from '../../validation';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SANDBOX_NOT_FOUND } from '../calls/call-answers';

export class CampaignTickBody {
  @Str({
    timestamp: true,
    description: 'ISO 8601: the window and due retries are read as if the clock read this; default now',
    example: '2026-03-02T09:00:00Z',
  })
  at?: string;
}

/** The dialer on demand, for tests: bound only while the voice runtime is the sandbox. */
@Controller('/api/sandbox/campaigns')
export class SandboxCampaignController {
  constructor(
    @inject(TOKENS.CampaignDialer) private readonly dialer: CampaignDialer,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: 'Run one dialer pass over a campaign now', tag: 'Sandbox', body: CampaignTickBody })
  @Post('/:id/tick')
  async tick(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const campaignId = pathId(id, SANDBOX_NOT_FOUND);
    const body = parse(CampaignTickBody, req.body ?? {});
    const at = body.at === undefined ? this.clock.now() : (parseTimestamp(body.at) ?? this.clock.now());
    const placed = await this.dialer.tick(principalOf(req).userId, campaignId, at);
    if (!placed.ok) refuse(SANDBOX_NOT_FOUND);
    return reply(200, { placed: placed.value });
  }
}
