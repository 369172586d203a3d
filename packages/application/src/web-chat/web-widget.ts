import {
  checkWidgetRequest,
  chatHistory,
  ChatHistoryItem,
  Conversation,
  DEFAULT_WIDGET_DAILY_CAP,
  err,
  ok,
  Result,
  WIDGET_ASSISTANT_MESSAGES_PER_MINUTE,
  WIDGET_STARTS_PER_MINUTE,
  WIDGET_VISITOR_MESSAGES_PER_MINUTE,
  WidgetRefusal,
  WidgetSettings,
} from '@voiceplane/domain';
import { hashToken } from '../accounts';
import { AssistantRepository } from '../assistants';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { RateLimiter } from '../ratelimit';
import { WebChatRepository, WidgetSettingsRepository } from './ports';
import { ChatReply, ReplyRefusal, WebChats } from './web-chats';

/** What the owner may change; absent fields stay. */
export interface WidgetChange {
  readonly enabled?: boolean;
  readonly allowedOrigins?: readonly string[];
  readonly dailyCap?: number;
}

/** Where a page's request comes from: its `Origin` header and the client's address (for the start quota). */
export interface WidgetPage {
  readonly widgetKey: string;
  readonly origin: string | undefined;
  readonly address: string;
}

/** A visitor's own chat: the conversation UUID and the token the start handed out. */
export interface VisitorChat {
  readonly uuid: string;
  readonly token: string;
}

export type RateLimited = { readonly code: 'rate_limited'; readonly retryAfter: number };
export type WidgetFailure =
  | WidgetRefusal
  | 'conversation_not_found'
  | RateLimited
  | Exclude<ReplyRefusal, 'conversation_not_found'>;

export interface WidgetStart {
  readonly conversation: Conversation;
  readonly history: ChatHistoryItem[];
  /** Shown once: the page keeps it to come back to the chat. */
  readonly visitorToken: string;
}

export interface WidgetDeps {
  readonly settings: WidgetSettingsRepository;
  readonly chats: WebChatRepository;
  readonly assistants: AssistantRepository;
  readonly webChats: WebChats;
  readonly limiter: RateLimiter;
}

/**
 * The embeddable widget: a page talks to its assistant with the widget's public key, never the
 * account's. Every request must come from an origin the owner allowed; a chat is read and written
 * only with its visitor token (stored hashed); visitors and assistants have message quotas, and a
 * widget's billed replies stop at its daily spending cap.
 */
export class WebWidget {
  constructor(
    private readonly deps: WidgetDeps,
    private readonly ids: Ids,
    private readonly clock: Clock,
  ) {}

  /** The assistant's widget; one never configured is created off, with its key. */
  async settingsOf(userId: number, assistantId: number): Promise<Result<WidgetSettings, 'assistant_not_found'>> {
    if ((await this.deps.assistants.findOwned(userId, assistantId)) === null) return err('assistant_not_found');
    const found = await this.deps.settings.find(userId, assistantId);
    if (found !== null) return ok(found);
    const created: WidgetSettings = {
      assistantId,
      userId,
      widgetKey: this.newKey(),
      enabled: false,
      allowedOrigins: [],
      dailyCap: DEFAULT_WIDGET_DAILY_CAP,
    };
    await this.deps.settings.save(created, this.clock.now());
    return ok(created);
  }

  async update(
    userId: number,
    assistantId: number,
    change: WidgetChange,
  ): Promise<Result<WidgetSettings, 'assistant_not_found'>> {
    const current = await this.settingsOf(userId, assistantId);
    if (!current.ok) return current;
    const next: WidgetSettings = {
      ...current.value,
      enabled: change.enabled ?? current.value.enabled,
      allowedOrigins: change.allowedOrigins ?? current.value.allowedOrigins,
      dailyCap: change.dailyCap ?? current.value.dailyCap,
    };
    await this.deps.settings.save(next, this.clock.now());
    return ok(next);
  }

  /** A new key: pages with the old one stop working at once; chats keep their visitor tokens. */
  async rotateKey(userId: number, assistantId: number): Promise<Result<WidgetSettings, 'assistant_not_found'>> {
    const current = await this.settingsOf(userId, assistantId);
    if (!current.ok) return current;
    const next = { ...current.value, widgetKey: this.newKey() };
    await this.deps.settings.save(next, this.clock.now());
    return ok(next);
  }

  async start(page: WidgetPage): Promise<Result<WidgetStart, WidgetFailure>> {
    const widget = await this.widgetFor(page);
    if (!widget.ok) return widget;
    const limited = await this.limit([
      {
        key: `widget-start:${widget.value.assistantId}:${page.address}`,
        limit: WIDGET_STARTS_PER_MINUTE,
        windowSeconds: 60,
      },
    ]);
    if (limited !== null) return err(limited);
    const visitorToken = this.ids.token('wvt_', 40);
    const started = await this.deps.webChats.start(widget.value.userId, {
      assistant: { id: widget.value.assistantId },
      type: 'widget',
      variables: {},
      visitorTokenHash: hashToken(visitorToken),
    });
    if (!started.ok) return err(started.error === 'assistant_not_found' ? 'widget_not_found' : started.error);
    return ok({ ...started.value, visitorToken });
  }

  async history(
    page: WidgetPage,
    chat: VisitorChat,
  ): Promise<Result<{ conversation: Conversation; history: ChatHistoryItem[] }, WidgetFailure>> {
    const found = await this.visitorChat(page, chat);
    if (!found.ok) return found;
    const messages = await this.deps.chats.messagesAfter(found.value.conversation.id, 0, 500);
    return ok({ conversation: found.value.conversation, history: chatHistory(messages) });
  }

  async send(page: WidgetPage, chat: VisitorChat, text: string): Promise<Result<ChatReply, WidgetFailure>> {
    const found = await this.visitorChat(page, chat);
    if (!found.ok) return found;
    const { conversation, widget } = found.value;
    const limited = await this.limit([
      { key: `widget-visitor:${conversation.id}`, limit: WIDGET_VISITOR_MESSAGES_PER_MINUTE, windowSeconds: 60 },
      { key: `widget-assistant:${widget.assistantId}`, limit: WIDGET_ASSISTANT_MESSAGES_PER_MINUTE, windowSeconds: 60 },
    ]);
    if (limited !== null) return err(limited);
    return this.deps.webChats.send(widget.userId, { id: conversation.id }, text, {
      assistantId: widget.assistantId,
      limit: widget.dailyCap,
    });
  }

  /** The visitor's chat, checked like every widget request; for the live stream. */
  async visitorChat(
    page: WidgetPage,
    chat: VisitorChat,
  ): Promise<Result<{ conversation: Conversation; widget: WidgetSettings }, WidgetFailure>> {
    const widget = await this.widgetFor(page);
    if (!widget.ok) return widget;
    const conversation = await this.deps.chats.findVisitorChat(chat.uuid, hashToken(chat.token));
    if (conversation === null || conversation.assistantId !== widget.value.assistantId)
      return err('conversation_not_found');
    return ok({ conversation, widget: widget.value });
  }

  private async widgetFor(page: WidgetPage): Promise<Result<WidgetSettings, WidgetRefusal>> {
    const settings = await this.deps.settings.findByKey(page.widgetKey);
    const refused = checkWidgetRequest(settings, page.origin);
    return refused === null && settings !== null ? ok(settings) : err(refused ?? 'widget_not_found');
  }

  private async limit(buckets: { key: string; limit: number; windowSeconds: number }[]): Promise<RateLimited | null> {
    const decision = await this.deps.limiter.consume(buckets);
    return decision.allowed ? null : { code: 'rate_limited', retryAfter: decision.retryAfterSeconds };
  }

  private newKey(): string {
    return this.ids.token('wgt_', 24);
  }
}
