import { Controller, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ConversationRepository, EndInactiveConversation, TOKENS } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { SANDBOX_NOT_FOUND } from './chatapp-answers';
import { presentConversation } from './chatapp-presenters';
import { conversationRef } from './conversation-controller';

/** S13: drives voiceplane's own scheduler, so it exists whenever any provider is the sandbox (D3). */
@Controller('/api/sandbox/conversations')
export class SandboxConversationController {
  constructor(
    @inject(TOKENS.ConversationRepository) private readonly conversations: ConversationRepository,
    @inject(TOKENS.EndInactiveConversation) private readonly ending: EndInactiveConversation,
  ) {}

  @Doc({ summary: 'Sandbox S13: end a conversation now', tag: 'Sandbox', success: 200 })
  @Post('/:uuid/end-now')
  async endNow(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    const owned = await this.conversations.findOwned(principalOf(req).userId, conversationRef(uuid, SANDBOX_NOT_FOUND));
    if (owned === null) refuse(SANDBOX_NOT_FOUND);
    const ended = await this.ending.end(owned.id, { force: true });
    return reply(200, { ok: true, conversation: presentConversation(ended ?? owned) });
  }
}
