import { Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ChatappMessageQueries, SendFreeformMessage, SendTemplateMessage, TOKENS } from '@voiceplane/application';
import { TargetUrlPolicy } from '@voiceplane/domain';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { isoOrNull } from '../../presenters/format';
import { SendFreeformBody, SendTemplateBody, SessionStatusQuery } from './chatapp-body';
import {
  FREEFORM_SEND_ANSWERS,
  MESSAGE_ANSWERS,
  MESSAGE_NOT_FOUND,
  MESSAGE_OR_MEDIA_REQUIRED,
  SESSION_ANSWERS,
  TEMPLATE_SEND_ANSWERS,
} from './chatapp-answers';
import { presentChatappMessage, presentSessionStatus } from './chatapp-presenters';

const FAMILY = 'chatapp';
const MESSAGE_SID = /^SM[0-9a-f]{32}$/;

/** Template and freeform sends, session status and message lookup. */
@Controller('/api/user/chatapp')
export class ChatappSendController {
  constructor(
    @inject(TOKENS.SendTemplateMessage) private readonly sendTemplate: SendTemplateMessage,
    @inject(TOKENS.SendFreeformMessage) private readonly sendFreeform: SendFreeformMessage,
    @inject(TOKENS.ChatappMessageQueries) private readonly queries: ChatappMessageQueries,
    @inject(TOKENS.TargetUrlPolicy) private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'Send an approved template message', tag: 'Chat app', body: SendTemplateBody, success: 200 })
  @Post('/send')
  async template(@Request() req: ExpressRequest) {
    const body = parse(SendTemplateBody, req.body, FAMILY);
    const send = () =>
      this.sendTemplate.execute({
        userId: principalOf(req).userId,
        senderId: body.sender_id,
        templateId: body.template_id,
        recipientPhone: body.recipient_phone,
        recipientName: body.recipient_name ?? null,
        variables: body.variables ?? {},
        source: 'api',
        requestId: requestIdOf(req),
      });
    return reply(req, send, (sent) => {
      if (!sent.ok) return answerFor(TEMPLATE_SEND_ANSWERS, sent.error);
      const { conversation, messageId, chatapp } = sent.value;
      return {
        status: 200,
        body: {
          success: true,
          conversation_id: conversation.id,
          message_id: messageId,
          chatapp_message_id: chatapp.id,
          message_sid: chatapp.messageSid,
          status: chatapp.status,
        },
      };
    });
  }

  @Doc({
    summary: 'Send a freeform message inside the 24-hour window',
    tag: 'Chat app',
    body: SendFreeformBody,
    success: 200,
  })
  @Post('/send-freeform')
  async freeform(@Request() req: ExpressRequest) {
    const body = parse(SendFreeformBody, req.body, FAMILY, { targetPolicy: this.targetPolicy });
    const mediaUrl = body.media_url ?? null;
    if (mediaUrl === null && (body.message === undefined || body.message === null || body.message === '')) {
      refuse(MESSAGE_OR_MEDIA_REQUIRED);
    }
    const send = () =>
      this.sendFreeform.execute({
        userId: principalOf(req).userId,
        senderId: body.sender_id,
        recipientPhone: body.recipient_phone,
        message: body.message ?? null,
        mediaUrl,
        filename: body.filename ?? null,
        source: 'api',
        requestId: requestIdOf(req),
      });
    return reply(req, send, (sent) => {
      if (!sent.ok) return answerFor(FREEFORM_SEND_ANSWERS, sent.error);
      const { conversation, messageId, chatapp } = sent.value;
      return {
        status: 200,
        body: {
          success: true,
          conversation_id: conversation.id,
          message_id: messageId,
          chatapp_message_id: chatapp.id,
          message_sid: chatapp.messageSid,
          session_status: presentSessionStatus(sent.value.sessionStatus),
        },
      };
    });
  }

  @Doc({ summary: 'The 24-hour window with a recipient', tag: 'Chat app', query: SessionStatusQuery })
  @Get('/session-status')
  async session(@Request() req: ExpressRequest) {
    const query = parse(SessionStatusQuery, req.query ?? {}, FAMILY);
    const found = await this.queries.session(principalOf(req).userId, query.sender_id, query.recipient_phone);
    if (!found.ok) refuse(SESSION_ANSWERS, found.error);
    const { conversation, sessionStatus, windowOpenedBy } = found.value;
    if (conversation === null)
      return reply(200, {
        success: true,
        has_conversation: false,
        session_status: presentSessionStatus(sessionStatus),
      });
    return reply(200, {
      success: true,
      has_conversation: true,
      conversation_id: conversation.id,
      conversation_uuid: conversation.uuid,
      customer_name: conversation.customerName,
      last_customer_message_at: isoOrNull(conversation.window.lastCustomerMessageAt),
      window_opened_by: windowOpenedBy,
      session_status: presentSessionStatus(sessionStatus),
    });
  }

  @Doc({ summary: 'A chat-app message and its delivery statuses', tag: 'Chat app' })
  @Get('/messages/:message_sid')
  async message(@Request() req: ExpressRequest, @Params({ name: 'message_sid' }) sid: string) {
    if (!MESSAGE_SID.test(sid)) refuse({ status: MESSAGE_NOT_FOUND.status, body: MESSAGE_NOT_FOUND.body });
    const message = await this.queries.message(principalOf(req).userId, sid);
    if (!message.ok) refuse(MESSAGE_ANSWERS, message.error);
    return reply(200, { success: true, data: presentChatappMessage(message.value) });
  }
}
