import { Controller, Get, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { TOKENS, VoiceWebhook } from '@voiceplane/application';
import { publicTarget, Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';

class VoiceWebhookBody {
  @Str({
    required: true,
    nullable: true,
    url: true,
    target: publicTarget,
    description: 'Public http(s) URL for call_started and call_permission_granted, or null to clear',
  })
  webhook_url!: string | null;
}

const tag = 'Chat-app voice';

/** The account's chat-app voice webhook. */
@Controller('/api/user/chatapp/voice/webhook')
export class VoiceWebhookController {
  constructor(
    @inject(TOKENS.VoiceWebhook) private readonly voiceWebhook: VoiceWebhook,
    @inject(TOKENS.TargetUrlPolicy) private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'The account voice webhook URL (null when none)', tag })
  @Get('/')
  async get(@Request() req: ExpressRequest) {
    return reply(200, { success: true, webhook_url: await this.voiceWebhook.url(principalOf(req).userId) });
  }

  @Doc({
    summary: 'Set or clear the account voice webhook; clearing cancels pending voice events',
    tag,
    body: VoiceWebhookBody,
  })
  @Put('/')
  async put(@Request() req: ExpressRequest) {
    const body = parse(VoiceWebhookBody, req.body ?? {}, 'chatapp', { targetPolicy: this.targetPolicy });
    return reply(200, {
      success: true,
      webhook_url: await this.voiceWebhook.set(principalOf(req).userId, body.webhook_url),
    });
  }
}
