import { Body, Controller, Post, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { TOKENS, WebChats } from '@voiceplane/application';
import { parse, reply } from '../../pipeline/responses';
import { refuse, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { GENERATE_REPLY_ANSWERS } from './web-chat-answers';
import {
  assistantRefOf,
  withTextAssistantId,
  failStandardValidation,
  GenerateReplyBody,
  variablesOf,
} from './web-chat-body';

/** AI replies for a customer's own channel: the conversation is kept here, found again by the customer identifier. */
@Controller('/api/user/ai')
export class GenerateReplyController {
  constructor(@inject(TOKENS.WebChats) private readonly chats: WebChats) {}

  @Doc({
    summary: "Generate the assistant's reply to a customer message on your own channel (5 per minute per token)",
    tag: 'Chatbot',
    body: GenerateReplyBody,
    success: 200,
  })
  @Post('/generate-reply')
  async generate(@Request() req: ExpressRequest, @Body() raw: unknown) {
    const body = parse(GenerateReplyBody, withTextAssistantId(raw));
    const variables = variablesOf(body.variables, failStandardValidation);
    const assistant = assistantRefOf(body.assistant_id);
    if (assistant === null) refuse(GENERATE_REPLY_ANSWERS, 'assistant_not_found');
    return reply(
      req,
      () =>
        this.chats.external(principalOf(req).userId, {
          assistant,
          customerIdentifier: body.customer_identifier,
          message: body.message,
          variables: body.variables === undefined ? undefined : variables,
        }),
      (replied) => {
        if (!replied.ok) return answerFor(GENERATE_REPLY_ANSWERS, replied.error);
        const { conversation, reply: text, functionCalls, aiDisabled } = replied.value;
        return {
          status: 200,
          body: {
            success: true,
            conversation_id: conversation.uuid,
            customer_identifier: body.customer_identifier,
            reply: text,
            function_calls: functionCalls,
            ai_disabled: aiDisabled,
          },
        };
      },
    );
  }
}
