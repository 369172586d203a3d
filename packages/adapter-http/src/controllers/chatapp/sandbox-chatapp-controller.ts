import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  ApplyDeliveryStatus, ChatappMessageRepository, Clock, ConversationRepository, ReceiveCustomerMessage,
  SandboxChatappState, SenderRepository, TemplateRepository, TOKENS, UnitOfWork,
} from '@voiceplane/application';
import { expireWindow, sessionStatus } from '@voiceplane/domain';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { iso } from '../../presenters/format';
import {
  SandboxExpireWindowBody, SandboxInboundBody, SandboxMessageStatusBody, SandboxOutboxQuery, SandboxSenderStatusBody, SandboxTemplateStatusBody,
} from './chatapp-body';
import { SANDBOX_INBOUND_HAS_NO_STATUS, SANDBOX_NOT_FOUND, SANDBOX_TEXT_OR_MEDIA_REQUIRED } from './chatapp-answers';
import { presentChatappMessage, presentSender, presentSessionStatus, presentTemplate } from './chatapp-presenters';


const OUTBOX_LIMIT = 200;

/** S1 and S3–S7; exists only while the chat-app provider is the sandbox (D3). */
@Controller('/api/sandbox/chatapp')
export class SandboxChatappController {
  constructor(
    @inject(TOKENS.SenderRepository) private readonly senders: SenderRepository,
    @inject(TOKENS.TemplateRepository) private readonly templates: TemplateRepository,
    @inject(TOKENS.ConversationRepository) private readonly conversations: ConversationRepository,
    @inject(TOKENS.ChatappMessageRepository) private readonly messages: ChatappMessageRepository,
    @inject(TOKENS.ReceiveCustomerMessage) private readonly receive: ReceiveCustomerMessage,
    @inject(TOKENS.ApplyDeliveryStatus) private readonly deliveryStatus: ApplyDeliveryStatus,
    @inject(TOKENS.SandboxChatappState) private readonly state: SandboxChatappState,
    @inject(TOKENS.UnitOfWork) private readonly uow: UnitOfWork,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  @Doc({ summary: 'Sandbox S1: a customer message arrives', tag: 'Sandbox', body: SandboxInboundBody, success: 200 })
  @Post('/inbound-message')
  async inbound(@Request() req: ExpressRequest) {
    const body = parse(SandboxInboundBody, req.body);
    const mediaUrl = body.media_url ?? null;
    if ((body.text ?? '') === '' && mediaUrl === null) refuse(SANDBOX_TEXT_OR_MEDIA_REQUIRED);
    const sender = await this.senders.findOwned(principalOf(req).userId, body.sender_id);
    if (sender === null) refuse(SANDBOX_NOT_FOUND);
    const received = await this.receive.execute({
      sender, customerPhone: body.from_phone, customerName: body.customer_name ?? null, text: body.text ?? null,
      media: mediaUrl === null ? null : { source: { kind: 'url', ref: mediaUrl }, mediaType: body.media_type ?? 'image', caption: body.text ?? null }, providerMessageId: null,
    });
    const ai = received.aiReply.reply;
    return reply(200, {
      ok: true, conversation_id: received.conversation.id, conversation_uuid: received.conversation.uuid, message_id: received.messageId,
      ...(ai === null
        ? { ai_reply: null, ai_reply_skipped: received.aiReply.skipped }
        : { ai_reply: { message_id: ai.messageId, body: ai.body, status: ai.status, ...(ai.errorCode === null ? {} : { error_code: ai.errorCode }) } }),
    });
  }

  @Doc({ summary: 'Sandbox S3: sender status', tag: 'Sandbox', body: SandboxSenderStatusBody })
  @Put('/senders/:id/status')
  async senderStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const sender = await this.senders.findOwned(principalOf(req).userId, pathId(id, SANDBOX_NOT_FOUND));
    if (sender === null) refuse(SANDBOX_NOT_FOUND);
    const body = parse(SandboxSenderStatusBody, req.body);
    const updated = await this.senders.setStatus(sender.id, body.status, body.quality_rating ?? null, this.clock.now());
    return reply(200, { ok: true, data: presentSender(updated!) });
  }

  @Doc({ summary: 'Sandbox S4: template status', tag: 'Sandbox', body: SandboxTemplateStatusBody })
  @Put('/templates/:id/status')
  async templateStatus(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const template = await this.templates.findOwned(principalOf(req).userId, pathId(id, SANDBOX_NOT_FOUND));
    if (template === null) refuse(SANDBOX_NOT_FOUND);
    const body = parse(SandboxTemplateStatusBody, req.body);
    const updated = await this.templates.setStatus(template.id, body.status, body.rejection_reason ?? null, this.clock.now());
    return reply(200, { ok: true, data: presentTemplate(updated!) });
  }

  @Doc({ summary: 'Sandbox S5: a delivery status', tag: 'Sandbox', body: SandboxMessageStatusBody, success: 200 })
  @Post('/messages/:message_sid/status')
  async messageStatus(@Request() req: ExpressRequest, @Params({ name: 'message_sid' }) sid: string) {
    const message = await this.messages.findOwnedBySid(principalOf(req).userId, sid);
    if (message === null) refuse(SANDBOX_NOT_FOUND);
    const body = parse(SandboxMessageStatusBody, req.body);
    const applied = await this.deliveryStatus.apply(message.id, {
      status: body.status, at: this.clock.now(), errorCode: body.error_code ?? null, errorMessage: body.error_message ?? null,
    });
    if (!applied.ok) {
      if (applied.error === 'not_found') refuse(SANDBOX_NOT_FOUND);
      refuse(SANDBOX_INBOUND_HAS_NO_STATUS);
    }
    return reply(200, { ok: true, data: presentChatappMessage(applied.value) });
  }

  @Doc({ summary: 'Sandbox S6: close the 24-hour window', tag: 'Sandbox', body: SandboxExpireWindowBody, success: 200 })
  @Post('/expire-window')
  async expire(@Request() req: ExpressRequest) {
    const body = parse(SandboxExpireWindowBody, req.body);
    const sender = await this.senders.findOwned(principalOf(req).userId, body.sender_id);
    if (sender === null) refuse(SANDBOX_NOT_FOUND);
    const expired = await this.uow.transaction(async () => {
      const conversation = await this.conversations.lock(sender.id, body.customer_phone);
      if (conversation === null) return null;
      const now = this.clock.now();
      const next = { ...conversation, window: expireWindow(conversation.window, now), updatedAt: now };
      await this.conversations.save(next);
      return sessionStatus(next.window, now);
    });
    if (expired === null) refuse(SANDBOX_NOT_FOUND);
    return reply(200, { ok: true, session_status: presentSessionStatus(expired) });
  }

  @Doc({ summary: 'Sandbox S7: what the sandbox chat app sent', tag: 'Sandbox', query: SandboxOutboxQuery })
  @Get('/outbox')
  async outbox(@Request() req: ExpressRequest) {
    const query = parse(SandboxOutboxQuery, req.query ?? {});
    const userId = principalOf(req).userId;
    // Controls act on the caller's own resources only: another account's sender is not found, not an empty list.
    if (query.sender_id !== undefined && (await this.senders.findOwned(userId, query.sender_id)) === null) refuse(SANDBOX_NOT_FOUND);
    const items = await this.state.outbox(userId, { senderId: query.sender_id, to: query.to }, OUTBOX_LIMIT);
    return reply(200, {
      data: items.map((i) => ({
        message_sid: i.messageSid, sender_id: i.senderId, to: i.to, type: i.type, body: i.body, media_url: i.mediaUrl, template_id: i.templateId, at: iso(i.at),
      })),
    });
  }

}
