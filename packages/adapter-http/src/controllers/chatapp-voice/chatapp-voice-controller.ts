import { Controller, Get, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  CallPermissionView,
  PlaceChatappCall,
  ReadCallPermission,
  RequestCallPermission,
  TOKENS,
} from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf, requestIdOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { CHATAPP_CALL_ANSWERS, PERMISSION_READ_ANSWERS, PERMISSION_REQUEST_ANSWERS } from './chatapp-voice-answers';
import { ChatappCallBody, PermissionQuery, PermissionRequestBody } from './voice-bodies';
import { presentPermission } from './voice-presenters';

const tag = 'Chat-app voice';

/** Call permission and chat-app calls, chat-app error family. */
@Controller('/api/user/chatapp/voice')
export class ChatappVoiceController {
  constructor(
    @inject(TOKENS.RequestCallPermission) private readonly requests: RequestCallPermission,
    @inject(TOKENS.ReadCallPermission) private readonly reads: ReadCallPermission,
    @inject(TOKENS.PlaceChatappCall) private readonly calls: PlaceChatappCall,
  ) {}

  @Doc({
    summary: 'Ask the customer for call permission (sends the request template; free)',
    tag,
    body: PermissionRequestBody,
  })
  @Post('/request')
  async request(@Request() req: ExpressRequest) {
    const body = parse(PermissionRequestBody, req.body ?? {}, 'chatapp');
    const { userId } = principalOf(req);
    const ask = () =>
      this.requests.execute({
        userId,
        senderId: body.sender_id,
        recipientPhone: body.recipient_phone,
        recipientName: body.recipient_name ?? null,
        templateId: body.template_id ?? null,
        requestId: requestIdOf(req),
      });
    return reply(req, ask, (requested) =>
      requested.ok
        ? { status: 200, body: { success: true, ...presentPermission(requested.value, false) } }
        : answerFor(PERMISSION_REQUEST_ANSWERS, requested.error),
    );
  }

  @Doc({
    summary: 'The call permission and a preflight of both voice actions with reasons',
    tag,
    query: PermissionQuery,
  })
  @Get('/permission')
  async permission(@Request() req: ExpressRequest) {
    const query = parse(PermissionQuery, req.query, 'chatapp');
    return reply(200, {
      success: true,
      ...presentPermission(await this.view(principalOf(req).userId, query.sender_id, query.recipient_phone), true),
    });
  }

  @Doc({ summary: "Queue a business-initiated chat-app call with the sender's assistant", tag, body: ChatappCallBody })
  @Post('/call')
  async call(@Request() req: ExpressRequest) {
    const body = parse(ChatappCallBody, req.body ?? {}, 'chatapp');
    const place = () =>
      this.calls.execute({
        userId: principalOf(req).userId,
        senderId: body.sender_id,
        recipientPhone: body.recipient_phone,
        variables: body.variables ?? {},
      });
    return reply(req, place, (placed) =>
      placed.ok
        ? {
            status: 200,
            body: { success: true, status: 'queued', sender_id: body.sender_id, customer_phone: body.recipient_phone },
          }
        : answerFor(CHATAPP_CALL_ANSWERS, placed.error),
    );
  }

  private async view(userId: number, senderId: number, phone: string): Promise<CallPermissionView> {
    const view = await this.reads.read(userId, senderId, phone);
    if (!view.ok) refuse(PERMISSION_READ_ANSWERS, view.error);
    return view.value;
  }
}
