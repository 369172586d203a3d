import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { EndInactiveConversation, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SANDBOX_CONVERSATION_ANSWERS, SANDBOX_NOT_FOUND } from './conversation-answers';
import { presentConversation } from './conversation-presenters';
import { conversationRef } from './conversation-controller';

/** Sandbox `end-now`: drives voiceplane's own scheduler, so it exists whenever any provider is the sandbox. */
@Controller('/api/sandbox/conversations')
export class SandboxConversationController {
  constructor(@inject(TOKENS.EndInactiveConversation) private readonly ending: EndInactiveConversation) {}

  @Doc({ summary: 'Sandbox: end a conversation now', tag: 'Sandbox', success: 200 })
  @Post('/:uuid/end-now')
  async endNow(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    const ended = await this.ending.endOwnedNow(principalOf(req).userId, conversationRef(uuid, SANDBOX_NOT_FOUND));
    if (!ended.ok) refuse(SANDBOX_CONVERSATION_ANSWERS, ended.error);
    return reply(200, { ok: true, conversation: presentConversation(ended.value) });
  }
}
