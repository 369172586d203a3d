import { Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import {
  AssistantRepository, ChatappProvider, CreateTemplate, RegisterSender, SenderChanges, SenderRepository, TemplateRepository, TOKENS,
  UpdateSender, WhatsappCredentials,
} from '@voiceplane/application';
import { FieldErrors, TargetUrlPolicy } from '@voiceplane/domain';
import { failValidation, parse, pathId, reply } from '../../pipeline/responses';
import { answer, refuse } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { validateDto } from '../../validation';
import {
  CreateSenderBody, CreateTemplateBody, SenderListQuery, TemplateAliasQuery, TemplateListQuery, UpdateSenderBody, WhatsappCredentialsBody,
} from './chatapp-body';
import { CREATE_TEMPLATE_ANSWERS, REGISTER_SENDER_ANSWERS, SENDER_ASSISTANT_INVALID, SENDER_NOT_FOUND } from './chatapp-answers';
import { presentSender, presentTemplate } from './chatapp-presenters';

const FAMILY = 'chatapp';

/** Senders and templates. */
@Controller('/api/user/chatapp')
export class ChatappSenderController {
  constructor(
    @inject(TOKENS.SenderRepository) private readonly senders: SenderRepository,
    @inject(TOKENS.TemplateRepository) private readonly templates: TemplateRepository,
    @inject(TOKENS.AssistantRepository) private readonly assistants: AssistantRepository,
    @inject(TOKENS.RegisterSender) private readonly registerSender: RegisterSender,
    @inject(TOKENS.UpdateSender) private readonly updateSender: UpdateSender,
    @inject(TOKENS.CreateTemplate) private readonly createTemplate: CreateTemplate,
    @inject(TOKENS.ChatappProvider) private readonly provider: ChatappProvider,
    @inject(TOKENS.TargetUrlPolicy) private readonly targetPolicy: TargetUrlPolicy,
  ) {}

  @Doc({ summary: 'List chat-app senders', tag: 'Chat app', query: SenderListQuery })
  @Get('/senders')
  async list(@Request() req: ExpressRequest) {
    const query = parse(SenderListQuery, req.query ?? {}, FAMILY);
    return reply(200, { data: (await this.senders.list(principalOf(req).userId, query.status ?? 'online')).map(presentSender) });
  }

  @Doc({ summary: 'Get a chat-app sender', tag: 'Chat app' })
  @Get('/senders/:id')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const sender = await this.senders.findOwned(principalOf(req).userId, pathId(id, SENDER_NOT_FOUND));
    if (sender === null) refuse(SENDER_NOT_FOUND);
    return reply(200, { success: true, data: presentSender(sender) });
  }

  @Doc({ summary: 'Register a chat-app sender', tag: 'Chat app', body: CreateSenderBody, success: 201 })
  @Post('/senders')
  async create(@Request() req: ExpressRequest) {
    const userId = principalOf(req).userId;
    const body = parse(CreateSenderBody, req.body, FAMILY, { targetPolicy: this.targetPolicy });
    await this.checkAssistant(userId, body.assistant_id);
    const created = await this.registerSender.execute({
      userId, phoneNumber: body.phone_number, displayName: body.display_name, assistantId: body.assistant_id ?? null,
      callingEnabled: body.calling_enabled ?? false, statusWebhookUrl: body.status_webhook_url ?? null, credentials: this.credentials(body.provider_config),
    });
    if (!created.ok) answer(REGISTER_SENDER_ANSWERS, created.error);
    return reply(201, { success: true, data: presentSender(created.value) });
  }

  @Doc({ summary: 'Update a chat-app sender', tag: 'Chat app', body: UpdateSenderBody })
  @Put('/senders/:id')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const userId = principalOf(req).userId;
    const senderId = pathId(id, SENDER_NOT_FOUND);
    if ((await this.senders.findOwned(userId, senderId)) === null) refuse(SENDER_NOT_FOUND);
    const body = parse(UpdateSenderBody, req.body ?? {}, FAMILY, { partial: true, targetPolicy: this.targetPolicy });
    await this.checkAssistant(userId, body.assistant_id);
    const changes: SenderChanges = {
      displayName: body.display_name, assistantId: body.assistant_id, callingEnabled: body.calling_enabled, statusWebhookUrl: body.status_webhook_url,
    };
    const updated = await this.updateSender.execute(userId, senderId, changes);
    if (updated === null) refuse(SENDER_NOT_FOUND);
    return reply(200, { success: true, data: presentSender(updated) });
  }

  @Doc({ summary: 'List a sender\'s templates', tag: 'Chat app', query: TemplateListQuery })
  @Get('/senders/:sender_id/templates')
  async listTemplates(@Request() req: ExpressRequest, @Params({ name: 'sender_id' }) senderId: string) {
    const sender = await this.senders.findOwned(principalOf(req).userId, pathId(senderId, SENDER_NOT_FOUND));
    if (sender === null) refuse(SENDER_NOT_FOUND);
    const query = parse(TemplateListQuery, req.query ?? {}, FAMILY);
    return reply(200, { data: (await this.templates.list(sender.id, query.status ?? 'approved')).map(presentTemplate) });
  }

  @Doc({ summary: 'List a sender\'s templates (alias with sender_id)', tag: 'Chat app', query: TemplateAliasQuery })
  @Get('/templates')
  async listTemplatesAlias(@Request() req: ExpressRequest) {
    const query = parse(TemplateAliasQuery, req.query ?? {}, FAMILY);
    const sender = await this.senders.findOwned(principalOf(req).userId, query.sender_id);
    if (sender === null) refuse(SENDER_NOT_FOUND);
    return reply(200, { data: (await this.templates.list(sender.id, query.status ?? 'approved')).map(presentTemplate) });
  }

  @Doc({ summary: 'Create a template (submitted for approval)', tag: 'Chat app', body: CreateTemplateBody, success: 201 })
  @Post('/senders/:sender_id/templates')
  async createTemplateRoute(@Request() req: ExpressRequest, @Params({ name: 'sender_id' }) senderId: string) {
    const userId = principalOf(req).userId;
    const id = pathId(senderId, SENDER_NOT_FOUND);
    if ((await this.senders.findOwned(userId, id)) === null) refuse(SENDER_NOT_FOUND);
    const body = parse(CreateTemplateBody, req.body, FAMILY);
    const created = await this.createTemplate.execute({
      userId, senderId: id, name: body.name, language: body.language, category: body.category, bodyText: body.body_text,
      footerText: body.footer_text ?? null,
    });
    if (!created.ok) answer(CREATE_TEMPLATE_ANSWERS, created.error);
    return reply(201, { success: true, data: presentTemplate(created.value) });
  }

  private async checkAssistant(userId: number, assistantId: number | null | undefined): Promise<void> {
    if (assistantId === undefined || assistantId === null) return;
    if ((await this.assistants.findOwned(userId, assistantId)) === null) refuse(SENDER_ASSISTANT_INVALID);
  }

  /** WhatsApp senders need their Cloud API credentials; the sandbox ignores them. */
  private credentials(config: Record<string, unknown> | undefined): WhatsappCredentials | null {
    if (this.provider.name !== 'whatsapp') return null;
    const shaped = validateDto(WhatsappCredentialsBody, config ?? {}, {}, 'provider_config.');
    if (!shaped.ok) failValidation(shaped.errors as FieldErrors, FAMILY);
    return { phoneNumberId: shaped.value.phone_number_id, wabaId: shaped.value.waba_id, accessToken: shaped.value.access_token };
  }
}
