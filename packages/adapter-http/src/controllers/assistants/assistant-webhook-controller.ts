import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { AssistantWebhooks, TOKENS } from '@voiceplane/application';
import { WebhookTarget } from '@voiceplane/domain';
import { Id, Str } from '../../validation';
import { parse, reply } from '../../pipeline/responses';
import { answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { ASSISTANT_SUCCESS, WEBHOOK_SWITCH_ANSWERS } from './assistant-answers';
import { Doc } from '../../openapi/route-doc';

class DisableWebhookBody {
  @Id({ required: true }) assistant_id!: number;
}

class EnableWebhookBody {
  @Id({ required: true }) assistant_id!: number;
  @Str({ required: true, url: true, description: 'Public http(s) URL' }) webhook_url!: string;
}

const tag = 'Assistants';

@Controller('/api/user/assistants')
export class AssistantWebhookController {
  constructor(@inject(TOKENS.AssistantWebhooks) private readonly webhooks: AssistantWebhooks) {}

  @Doc({ summary: 'Stop post-call webhooks; pending deliveries are canceled', tag, body: DisableWebhookBody })
  @Post('/disable-webhook')
  async disable(@Request() req: ExpressRequest) {
    const body = parse(DisableWebhookBody, req.body);
    return reply(
      req,
      () => this.webhooks.disable(principalOf(req).userId, body.assistant_id),
      (result) =>
        result.ok
          ? { status: 200, body: { message: ASSISTANT_SUCCESS.webhookDisabled, data: [] } }
          : answerFor(WEBHOOK_SWITCH_ANSWERS, result.error),
    );
  }

  @Doc({ summary: 'Send post-call webhooks to a URL', tag, body: EnableWebhookBody })
  @Post('/enable-webhook')
  async enable(@Request() req: ExpressRequest) {
    const body = parse(EnableWebhookBody, req.body);
    return reply(
      req,
      () => this.webhooks.enable(principalOf(req).userId, body.assistant_id, body.webhook_url),
      (result) =>
        result.ok
          ? { status: 200, body: { message: ASSISTANT_SUCCESS.webhookEnabled, data: [] } }
          : answerFor(WEBHOOK_SWITCH_ANSWERS, result.error),
    );
  }

  @Doc({
    summary:
      "Send the post-call body of each inbound call to a URL as well (the MCP server's enable_assistant_inbound_webhook)",
    tag,
    body: EnableWebhookBody,
  })
  @Post('/enable-inbound-webhook')
  async enableInbound(@Request() req: ExpressRequest) {
    return this.setUrl(req, 'inbound', true, ASSISTANT_SUCCESS.webhookEnabled);
  }

  @Doc({ summary: 'Stop sending inbound calls to the inbound webhook', tag, body: DisableWebhookBody })
  @Post('/disable-inbound-webhook')
  async disableInbound(@Request() req: ExpressRequest) {
    return this.setUrl(req, 'inbound', false, ASSISTANT_SUCCESS.inboundWebhookDisabled);
  }

  @Doc({
    summary: 'Send ended chat conversations to a URL (sets conversation_ended_webhook_url)',
    tag,
    body: EnableWebhookBody,
  })
  @Post('/enable-conversation-ended-webhook')
  async enableConversationEnded(@Request() req: ExpressRequest) {
    return this.setUrl(req, 'conversation_ended', true, ASSISTANT_SUCCESS.conversationEndedWebhookEnabled);
  }

  @Doc({
    summary: 'Stop the conversation-ended webhook; pending deliveries are canceled',
    tag,
    body: DisableWebhookBody,
  })
  @Post('/disable-conversation-ended-webhook')
  async disableConversationEnded(@Request() req: ExpressRequest) {
    return this.setUrl(req, 'conversation_ended', false, ASSISTANT_SUCCESS.conversationEndedWebhookDisabled);
  }

  /** Enabling takes the URL from the body; disabling clears it. */
  private async setUrl(req: ExpressRequest, target: WebhookTarget, enabling: boolean, message: string) {
    const body = enabling
      ? parse(EnableWebhookBody, req.body)
      : { ...parse(DisableWebhookBody, req.body), webhook_url: null };
    return reply(
      req,
      () => this.webhooks.setUrl(principalOf(req).userId, body.assistant_id, target, body.webhook_url),
      (result) =>
        result.ok ? { status: 200, body: { message, data: [] } } : answerFor(WEBHOOK_SWITCH_ANSWERS, result.error),
    );
  }
}
