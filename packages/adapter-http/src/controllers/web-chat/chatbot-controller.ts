import { Body, Controller, Get, Params, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TOKENS, WebChats } from '@voiceplane/application';
import { reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { conversationRef } from '../conversations/conversation-controller';
import { CHATBOT_ANSWERS } from './web-chat-answers';
import {
  assistantRefOf,
  withTextAssistantId,
  ChatMessageBody,
  failChatbotValidation,
  parseChatbot,
  StartChatBody,
  variablesOf,
} from './web-chat-body';

/** The AI chatbot: `widget` and `test` chats with an assistant, by the account's key. */
@Controller('/api/conversations')
export class ChatbotController {
  constructor(@inject(TOKENS.WebChats) private readonly chats: WebChats) {}

  @Doc({
    summary: 'Start a chatbot conversation (widget: billed per user message; test: free)',
    tag: 'Chatbot',
    body: StartChatBody,
    success: 200,
  })
  @Post('/')
  async start(@Request() req: ExpressRequest, @Body() raw: unknown) {
    const body = parseChatbot(StartChatBody, withTextAssistantId(raw));
    const variables = variablesOf(body.variables, failChatbotValidation);
    const assistant = assistantRefOf(body.assistant_id);
    if (assistant === null) refuse(CHATBOT_ANSWERS, 'assistant_not_found');
    return reply(
      req,
      () => this.chats.start(principalOf(req).userId, { assistant, type: body.type ?? 'widget', variables }),
      (started) =>
        started.ok
          ? {
              status: 200,
              body: { status: true, conversation_id: started.value.conversation.uuid, history: started.value.history },
            }
          : answerFor(CHATBOT_ANSWERS, started.error),
    );
  }

  @Doc({ summary: "A chatbot conversation's history and variables", tag: 'Chatbot' })
  @Get('/:uuid')
  async get(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string) {
    const found = await this.chats.history(principalOf(req).userId, conversationRef(uuid));
    if (!found.ok) refuse(CHATBOT_ANSWERS, found.error);
    const { conversation, history } = found.value;
    return reply(200, {
      status: true,
      history,
      variables: conversation.variables,
      ...(conversation.externalIdentifier === null ? {} : { external_identifier: conversation.externalIdentifier }),
    });
  }

  @Doc({
    summary: "Send a user message and get the assistant's reply with the functions it called",
    tag: 'Chatbot',
    body: ChatMessageBody,
    success: 200,
  })
  @Post('/:uuid/messages')
  async send(@Request() req: ExpressRequest, @Params({ name: 'uuid' }) uuid: string, @Body() raw: unknown) {
    const ref = conversationRef(uuid);
    const body = parseChatbot(ChatMessageBody, raw ?? {});
    return reply(
      req,
      () => this.chats.send(principalOf(req).userId, ref, body.message),
      (sent) => {
        if (!sent.ok) return answerFor(CHATBOT_ANSWERS, sent.error);
        const { reply: text, functionCalls, aiDisabled } = sent.value;
        return {
          status: 200,
          body: {
            status: true,
            message: text,
            function_calls: functionCalls,
            ...(aiDisabled ? { ai_disabled: true } : {}),
          },
        };
      },
    );
  }
}
