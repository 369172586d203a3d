import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { SandboxChatappControls, TOKENS } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { iso } from '../../presenters/format';
import {
  SandboxExpireWindowBody,
  SandboxInboundBody,
  SandboxMessageStatusBody,
  SandboxOutboxQuery,
  SandboxSenderStatusBody,
  SandboxTemplateStatusBody,
} from './chatapp-body';
import { SANDBOX_ANSWERS, SANDBOX_NOT_FOUND, SANDBOX_TEXT_OR_MEDIA_REQUIRED } from './chatapp-answers';
import { presentChatappMessage, presentSender, presentSessionStatus, presentTemplate } from './chatapp-presenters';

const OUTBOX_LIMIT = 200;

/** The sandbox chat-app controls; they exist only while the chat-app provider is the sandbox. */
@Controller('/api/sandbox/chatapp')
export class SandboxChatappController {
  constructor(@inject(TOKENS.SandboxChatappControls) private readonly sandbox: SandboxChatappControls) {}

  @Doc({ summary: 'Sandbox: a customer message arrives', tag: 'Sandbox', body: SandboxInboundBody, success: 200 })
  @Post('/inbound-message')
  async inbound(@Request() req: ExpressRequest) {
    const body = parse(SandboxInboundBody, req.body);
    const mediaUrl = body.media_url ?? null;
    if ((body.text ?? '') === '' && mediaUrl === null) refuse(SANDBOX_TEXT_OR_MEDIA_REQUIRED);
    const received = await this.sandbox.inbound(principalOf(req).userId, {
      senderId: body.sender_id,
      customerPhone: body.from_phone,
      customerName: body.customer_name ?? null,
      text: body.text ?? null,
      media:
        mediaUrl === null
          ? null
          : {
              source: { kind: 'url', ref: mediaUrl },
              mediaType: body.media_type ?? 'image',
              caption: body.text ?? null,
            },
      providerMessageId: null,
    });
    if (!received.ok) refuse(SANDBOX_ANSWERS, received.error);
    const { conversation, messageId, aiReply } = received.value;
    const ai = aiReply.reply;
    return reply(200, {
      ok: true,
      conversation_id: conversation.id,
      conversation_uuid: conversation.uuid,
      message_id: messageId,
      ...(ai === null
        ? { ai_reply: null, ai_reply_skipped: aiReply.skipped }
        : {
            ai_reply: {
              message_id: ai.messageId,
              body: ai.body,
              status: ai.status,
              ...(ai.errorCode === null ? {} : { error_code: ai.errorCode }),
            },
          }),
    });
  }

  @Doc({ summary: 'Sandbox: sender status', tag: 'Sandbox', body: SandboxSenderStatusBody })
  @Put('/senders/:id/status')
  async senderStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const statusOf = () => {
      const body = parse(SandboxSenderStatusBody, req.body);
      return { status: body.status, qualityRating: body.quality_rating ?? null };
    };
    const updated = await this.sandbox.senderStatus(principalOf(req).userId, pathId(id, SANDBOX_NOT_FOUND), statusOf);
    if (!updated.ok) refuse(SANDBOX_ANSWERS, updated.error);
    return reply(200, { ok: true, data: presentSender(updated.value) });
  }

  @Doc({ summary: 'Sandbox: template status', tag: 'Sandbox', body: SandboxTemplateStatusBody })
  @Put('/templates/:id/status')
  async templateStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const statusOf = () => {
      const body = parse(SandboxTemplateStatusBody, req.body);
      return { status: body.status, rejectionReason: body.rejection_reason ?? null };
    };
    const updated = await this.sandbox.templateStatus(principalOf(req).userId, pathId(id, SANDBOX_NOT_FOUND), statusOf);
    if (!updated.ok) refuse(SANDBOX_ANSWERS, updated.error);
    return reply(200, { ok: true, data: presentTemplate(updated.value) });
  }

  @Doc({ summary: 'Sandbox: a delivery status', tag: 'Sandbox', body: SandboxMessageStatusBody, success: 200 })
  @Post('/messages/:message_sid/status')
  async messageStatus(@Request() req: ExpressRequest, @Params({ name: 'message_sid' }) sid: string) {
    const updateOf = () => {
      const body = parse(SandboxMessageStatusBody, req.body);
      return { status: body.status, errorCode: body.error_code ?? null, errorMessage: body.error_message ?? null };
    };
    const applied = await this.sandbox.messageStatus(principalOf(req).userId, sid, updateOf);
    if (!applied.ok) refuse(SANDBOX_ANSWERS, applied.error);
    return reply(200, { ok: true, data: presentChatappMessage(applied.value) });
  }

  @Doc({ summary: 'Sandbox: close the 24-hour window', tag: 'Sandbox', body: SandboxExpireWindowBody, success: 200 })
  @Post('/expire-window')
  async expire(@Request() req: ExpressRequest) {
    const body = parse(SandboxExpireWindowBody, req.body);
    const expired = await this.sandbox.expireWindow(principalOf(req).userId, body.sender_id, body.customer_phone);
    if (!expired.ok) refuse(SANDBOX_ANSWERS, expired.error);
    return reply(200, { ok: true, session_status: presentSessionStatus(expired.value) });
  }

  @Doc({ summary: 'Sandbox: what the sandbox chat app sent', tag: 'Sandbox', query: SandboxOutboxQuery })
  @Get('/outbox')
  async outbox(@Request() req: ExpressRequest) {
    const query = parse(SandboxOutboxQuery, req.query ?? {});
    const items = await this.sandbox.outbox(
      principalOf(req).userId,
      { senderId: query.sender_id, to: query.to },
      OUTBOX_LIMIT,
    );
    if (!items.ok) refuse(SANDBOX_ANSWERS, items.error);
    return reply(200, {
      data: items.value.map((i) => ({
        message_sid: i.messageSid,
        sender_id: i.senderId,
        to: i.to,
        type: i.type,
        body: i.body,
        media_url: i.mediaUrl,
        template_id: i.templateId,
        at: iso(i.at),
      })),
    });
  }
}
