import { Body, Controller, Get, Params, Post, Put, Request } from '@inversifyjs/http-core';
import type { Request as ExpressRequest } from 'express';
import { inject } from 'inversify';
import { normalizeOrigin, WIDGET_ORIGINS_MAX, WidgetSettings } from '@voiceplane/domain';
import { TOKENS, WebWidget, WidgetPage } from '@voiceplane/application';
import { parse, pathId, reply } from '../../pipeline/responses';
import { refuse, validationAnswer, Answer } from '../../pipeline/answers';
import { principalOf } from '../../pipeline/request-context';
import { Doc } from '../../openapi/route-doc';
import { Arr, Bool, Num } from '../../validation';
import { ChatMessageBody } from './web-chat-body';
import { WIDGET_ANSWERS } from './widget-answers';

const ASSISTANT_NOT_FOUND = { status: 404, body: { message: 'Assistant not found' } };
const CONVERSATION_NOT_FOUND: Answer = { status: 404, body: { status: false, error: 'Conversation not found' } };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class WidgetSettingsBody {
  @Bool() enabled?: boolean;
  @Arr(
    { kind: 'string' },
    { max: WIDGET_ORIGINS_MAX, description: 'Origins allowed to embed the widget, e.g. `https://shop.example.com`' },
  )
  allowed_origins?: string[];
  @Num({ min: 0, max: 1000, money: true, description: "USD the widget's chats may spend per UTC day" })
  daily_cap?: number;
}

export function presentWidget(s: WidgetSettings) {
  return {
    assistant_id: s.assistantId,
    widget_key: s.widgetKey,
    enabled: s.enabled,
    allowed_origins: s.allowedOrigins,
    daily_cap: s.dailyCap,
  };
}

/** The owner's side of an assistant's widget: on/off, origins, cap, key rotation. */
@Controller('/api/user/assistant')
export class WidgetSettingsController {
  constructor(@inject(TOKENS.WebWidget) private readonly widget: WebWidget) {}

  @Doc({ summary: "An assistant's web widget settings (created off on first read)", tag: 'Chatbot' })
  @Get('/:id/widget')
  async get(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const found = await this.widget.settingsOf(principalOf(req).userId, pathId(id, ASSISTANT_NOT_FOUND));
    if (!found.ok) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, { data: presentWidget(found.value) });
  }

  @Doc({
    summary: "Turn an assistant's web widget on or off, set its allowed origins and daily cap",
    tag: 'Chatbot',
    body: WidgetSettingsBody,
  })
  @Put('/:id/widget')
  async update(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string, @Body() raw: unknown) {
    const assistantId = pathId(id, ASSISTANT_NOT_FOUND);
    const body = parse(WidgetSettingsBody, raw ?? {});
    const origins = body.allowed_origins?.map((o) => normalizeOrigin(o));
    const bad = origins?.findIndex((o) => o === null) ?? -1;
    if (bad >= 0)
      refuse(
        validationAnswer({
          [`allowed_origins.${bad}`]: [
            `The allowed_origins.${bad} must be an http or https origin (scheme://host[:port]).`,
          ],
        }),
      );
    const updated = await this.widget.update(principalOf(req).userId, assistantId, {
      enabled: body.enabled,
      allowedOrigins: origins === undefined ? undefined : [...new Set(origins as string[])],
      dailyCap: body.daily_cap,
    });
    if (!updated.ok) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, { data: presentWidget(updated.value) });
  }

  @Doc({
    summary: "Give an assistant's web widget a new key (pages with the old one stop working)",
    tag: 'Chatbot',
    success: 200,
  })
  @Post('/:id/widget/rotate-key')
  async rotate(@Request() req: ExpressRequest, @Params({ name: 'id' }) id: string) {
    const rotated = await this.widget.rotateKey(principalOf(req).userId, pathId(id, ASSISTANT_NOT_FOUND));
    if (!rotated.ok) refuse(ASSISTANT_NOT_FOUND);
    return reply(200, { data: presentWidget(rotated.value) });
  }
}

export function widgetPage(req: ExpressRequest, key: string): WidgetPage {
  return { widgetKey: key, origin: req.headers.origin, address: req.ip ?? 'unknown' };
}

export function visitorChat(uuid: string, token: unknown): { uuid: string; token: string } {
  if (!UUID.test(uuid) || typeof token !== 'string' || token === '') refuse(CONVERSATION_NOT_FOUND);
  return { uuid, token };
}

/** What a page embedding the widget calls: the widget key, its origin and the visitor token; never the account's key. */
@Controller('/api/widget')
export class WidgetController {
  constructor(@inject(TOKENS.WebWidget) private readonly widget: WebWidget) {}

  @Doc({
    summary: "Widget: start a visitor's chat (answers the visitor token once)",
    tag: 'Chatbot',
    auth: 'none',
    success: 200,
  })
  @Post('/:key/conversations')
  async start(@Request() req: ExpressRequest, @Params({ name: 'key' }) key: string) {
    const started = await this.widget.start(widgetPage(req, key));
    if (!started.ok) refuse(WIDGET_ANSWERS, started.error);
    const { conversation, history, visitorToken } = started.value;
    return reply(200, {
      status: true,
      conversation_id: conversation.uuid,
      visitor_token: visitorToken,
      history: history.map(({ role, content }) => ({ role, content })),
    });
  }

  @Doc({ summary: "Widget: the visitor's chat history (header X-Visitor-Token)", tag: 'Chatbot', auth: 'none' })
  @Get('/:key/conversations/:uuid')
  async history(
    @Request() req: ExpressRequest,
    @Params({ name: 'key' }) key: string,
    @Params({ name: 'uuid' }) uuid: string,
  ) {
    const found = await this.widget.history(widgetPage(req, key), visitorChat(uuid, req.headers['x-visitor-token']));
    if (!found.ok) refuse(WIDGET_ANSWERS, found.error);
    return reply(200, { status: true, history: found.value.history.map(({ role, content }) => ({ role, content })) });
  }

  @Doc({
    summary: "Widget: send the visitor's message (header X-Visitor-Token); the reply also arrives on the event stream",
    tag: 'Chatbot',
    auth: 'none',
    body: ChatMessageBody,
    success: 200,
  })
  @Post('/:key/conversations/:uuid/messages')
  async send(
    @Request() req: ExpressRequest,
    @Params({ name: 'key' }) key: string,
    @Params({ name: 'uuid' }) uuid: string,
    @Body() raw: unknown,
  ) {
    const chat = visitorChat(uuid, req.headers['x-visitor-token']);
    const body = parse(ChatMessageBody, raw ?? {}, 'conversation');
    const sent = await this.widget.send(widgetPage(req, key), chat, body.message);
    if (!sent.ok) refuse(WIDGET_ANSWERS, sent.error);
    // What the assistant's tools answered stays with the owner: a visitor sees the text only.
    return reply(200, {
      status: true,
      message: sent.value.reply,
      ...(sent.value.aiDisabled ? { ai_disabled: true } : {}),
    });
  }
}
