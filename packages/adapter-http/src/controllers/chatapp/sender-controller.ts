import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { ManageSenders, TOKENS, WhatsappCredentials } from '@voiceplane/application';
import { FieldErrors, TargetUrlPolicy } from '@voiceplane/domain';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, answerFor } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { validateDto } from '../../validation';
import {
  CreateSenderBody,
  CreateTemplateBody,
  SenderListQuery,
  TemplateAliasQuery,
  TemplateListQuery,
  UpdateSenderBody,
  WhatsappCredentialsBody,
} from './chatapp-body';
import { CREATE_TEMPLATE_ANSWERS, REGISTER_SENDER_ANSWERS, SENDER_ANSWERS, SENDER_NOT_FOUND } from './chatapp-answers';
import { presentSender, presentTemplate } from './chatapp-presenters';

const FAMILY = 'chatapp';

/** Senders and templates; ownership (of the sender and of its assistant) in ManageSenders. */
@Controller('/api/user/chatapp')
export class ChatappSenderController {
  constructor(
    @inject(TOKENS.ManageSenders) private readonly senders: ManageSenders,
    @inject(TOKENS.TargetUrlPolicy) private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'List chat-app senders', tag: 'Chat app', query: SenderListQuery })
  @Get('/senders')
  async list(@Request() req: ExpressRequest) {
    const query = parse(SenderListQuery, req.query ?? {}, FAMILY);
    return reply(200, {
      data: (await this.senders.list(principalOf(req).userId, query.status ?? 'online')).map(presentSender),
    });
  }

  @Doc({ summary: 'Get a chat-app sender', tag: 'Chat app' })
  @Get('/senders/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const sender = await this.senders.get(principalOf(req).userId, pathId(id, SENDER_NOT_FOUND));
    if (!sender.ok) refuse(SENDER_ANSWERS, sender.error);
    return reply(200, { success: true, data: presentSender(sender.value) });
  }

  @Doc({ summary: 'Register a chat-app sender', tag: 'Chat app', body: CreateSenderBody, success: 201 })
  @Post('/senders')
  async create(@Request() req: ExpressRequest) {
    const body = parse(CreateSenderBody, req.body, FAMILY, { targetPolicy: this.targetPolicy });
    const register = () =>
      this.senders.register(
        {
          userId: principalOf(req).userId,
          phoneNumber: body.phone_number,
          displayName: body.display_name,
          assistantId: body.assistant_id ?? null,
          callingEnabled: body.calling_enabled ?? false,
          statusWebhookUrl: body.status_webhook_url ?? null,
        },
        () => credentialsOf(body.provider_config),
      );
    return reply(req, register, (created) =>
      created.ok
        ? { status: 201, body: { success: true, data: presentSender(created.value) } }
        : answerFor(REGISTER_SENDER_ANSWERS, created.error),
    );
  }

  @Doc({ summary: 'Update a chat-app sender', tag: 'Chat app', body: UpdateSenderBody })
  @Put('/senders/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const changesOf = () => {
      const body = parse(UpdateSenderBody, req.body ?? {}, FAMILY, { partial: true, targetPolicy: this.targetPolicy });
      return {
        displayName: body.display_name,
        assistantId: body.assistant_id,
        callingEnabled: body.calling_enabled,
        statusWebhookUrl: body.status_webhook_url,
      };
    };
    const updated = await this.senders.update(principalOf(req).userId, pathId(id, SENDER_NOT_FOUND), changesOf);
    if (!updated.ok) refuse(SENDER_ANSWERS, updated.error);
    return reply(200, { success: true, data: presentSender(updated.value) });
  }

  @Doc({ summary: "List a sender's templates", tag: 'Chat app', query: TemplateListQuery })
  @Get('/senders/:sender_id/templates')
  async listTemplates(@Request() req: ExpressRequest, @Params({ name: 'sender_id' }) senderId: string) {
    const filterOf = () => parse(TemplateListQuery, req.query ?? {}, FAMILY).status ?? 'approved';
    const templates = await this.senders.templatesOf(
      principalOf(req).userId,
      pathId(senderId, SENDER_NOT_FOUND),
      filterOf,
    );
    if (!templates.ok) refuse(SENDER_ANSWERS, templates.error);
    return reply(200, { data: templates.value.map(presentTemplate) });
  }

  @Doc({ summary: "List a sender's templates (alias with sender_id)", tag: 'Chat app', query: TemplateAliasQuery })
  @Get('/templates')
  async listTemplatesAlias(@Request() req: ExpressRequest) {
    const query = parse(TemplateAliasQuery, req.query ?? {}, FAMILY);
    const templates = await this.senders.templatesOf(
      principalOf(req).userId,
      query.sender_id,
      () => query.status ?? 'approved',
    );
    if (!templates.ok) refuse(SENDER_ANSWERS, templates.error);
    return reply(200, { data: templates.value.map(presentTemplate) });
  }

  @Doc({
    summary: 'Create a template (submitted for approval)',
    tag: 'Chat app',
    body: CreateTemplateBody,
    success: 201,
  })
  @Post('/senders/:sender_id/templates')
  async createTemplateRoute(@Request() req: ExpressRequest, @Params({ name: 'sender_id' }) senderId: string) {
    const draftOf = () => {
      const body = parse(CreateTemplateBody, req.body, FAMILY);
      return {
        name: body.name,
        language: body.language,
        category: body.category,
        bodyText: body.body_text,
        footerText: body.footer_text ?? null,
      };
    };
    const sender = pathId(senderId, SENDER_NOT_FOUND);
    return reply(
      req,
      () => this.senders.createTemplate(principalOf(req).userId, sender, draftOf),
      (created) =>
        created.ok
          ? { status: 201, body: { success: true, data: presentTemplate(created.value) } }
          : answerFor(CREATE_TEMPLATE_ANSWERS, created.error),
    );
  }
}

/** A WhatsApp sender's Cloud API credentials, read only when the chat app is WhatsApp. */
function credentialsOf(config: Record<string, unknown> | undefined): WhatsappCredentials {
  const shaped = validateDto(WhatsappCredentialsBody, config ?? {}, {}, 'provider_config.');
  if (!shaped.ok) refuse(validationAnswer(shaped.errors as FieldErrors, FAMILY));
  return {
    phoneNumberId: shaped.value.phone_number_id,
    wabaId: shaped.value.waba_id,
    accessToken: shaped.value.access_token,
  };
}
