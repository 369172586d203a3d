import { Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  AnswerCallPermission,
  ReadCallPermission,
  TOKENS,
  VoiceConversationLookup,
  VoiceSenderLookup,
} from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SANDBOX_PERMISSION_REPLY_ANSWERS } from './chatapp-voice-answers';
import { PermissionReplyBody } from './voice-bodies';
import { presentPermission } from './voice-presenters';

/** Sandbox permission reply: bound only while the chat-app provider is the sandbox; refusals answer `{"message": …}`. */
@Controller('/api/sandbox/chatapp')
export class SandboxPermissionController {
  constructor(
    @inject(TOKENS.VoiceSenderLookup) private readonly senders: VoiceSenderLookup,
    @inject(TOKENS.VoiceConversationLookup) private readonly conversations: VoiceConversationLookup,
    @inject(TOKENS.AnswerCallPermission) private readonly answers: AnswerCallPermission,
    @inject(TOKENS.ReadCallPermission) private readonly reads: ReadCallPermission,
  ) {}

  @Doc({
    summary: 'Sandbox: the customer accepts, rejects or revokes call permission',
    tag: 'Sandbox',
    body: PermissionReplyBody,
  })
  @Post('/permission-reply')
  async reply(@Request() req: ExpressRequest) {
    const body = parse(PermissionReplyBody, req.body ?? {});
    const { userId } = principalOf(req);
    const sender = await this.senders.findOwned(userId, body.sender_id);
    if (sender === null) refuse(SANDBOX_PERMISSION_REPLY_ANSWERS, 'not_found');
    const conversation = await this.conversations.find(sender.id, body.customer_phone);
    const answered = await this.answers.answer({
      userId,
      senderId: sender.id,
      customerPhone: body.customer_phone,
      conversationUuid: conversation?.uuid ?? null,
      response: body.response,
      permanent: body.is_permanent ?? false,
      requestId: requestIdOf(req),
    });
    if (!answered.ok) refuse(SANDBOX_PERMISSION_REPLY_ANSWERS, answered.error);
    const view = await this.reads.read(userId, sender.id, body.customer_phone);
    if (!view.ok) refuse(SANDBOX_PERMISSION_REPLY_ANSWERS, 'not_found');
    return reply(200, { ok: true, permission: presentPermission(view.value, false) });
  }
}
