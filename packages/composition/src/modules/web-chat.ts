import {
  CallConfigurations,
  ConversationBrain,
  InactivitySchedule,
  ReplyDrafts,
  TOKENS,
  type Token,
  WebChats,
  WEB_CHAT_DRAFT_TOPIC,
  WEB_CHAT_MESSAGE_TOPIC,
  WebWidget,
  WidgetStreams,
} from '@voiceplane/application';
import {
  ChatbotController,
  GenerateReplyController,
  WidgetController,
  WidgetSettingsController,
} from '@voiceplane/adapter-http';
import { TypeormWebChatRepository, TypeormWidgetSettingsRepository } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/** The public reference's limit on generate-reply: per API token, per minute. */
export const GENERATE_REPLIES_PER_MINUTE = 5;

/** Streams one widget chat may hold open on one api instance: a newer one ends the oldest (a reloaded tab). */
const WIDGET_STREAMS_PER_CHAT = 3;

/**
 * Web chats: the AI chatbot's `widget` and `test` conversations and AI replies for a customer's own
 * channel, in the conversation model the chat app uses, answered by the one conversation policy.
 * The widget's live streams are fed by the bus: every api instance subscribes under names of its
 * own (transient), so a message stored through any instance reaches a visitor held by another.
 */
export const webChatModule: ApiModule = ({ container: c, config, database, logger, bus }) => {
  const get = <T>(token: Token<T>): T => c.get(token);
  c.bind(TOKENS.WebChatRepository)
    .toDynamicValue(() => new TypeormWebChatRepository(database))
    .inSingletonScope();
  c.bind(TOKENS.WebChats)
    .toDynamicValue(
      () =>
        new WebChats(
          {
            uow: get(TOKENS.UnitOfWork),
            users: get(TOKENS.UserRepository),
            ledger: get(TOKENS.LedgerRepository),
            balance: get(TOKENS.BalanceService),
            assistants: get(TOKENS.AssistantRepository),
            conversations: get(TOKENS.ConversationRepository),
            chats: get(TOKENS.WebChatRepository),
            outbox: get(TOKENS.Outbox),
          },
          {
            brain: c.get(ConversationBrain),
            configurations: c.get(CallConfigurations),
            tools: get(TOKENS.InvokeToolForConversation),
            schedule: c.get(InactivitySchedule),
            ending: get(TOKENS.EndInactiveConversation),
            messagePrice: config.chatappPrices.freeformMessage,
            drafts: new ReplyDrafts(bus, get(TOKENS.Ids), get(TOKENS.Clock), logger.child({ module: 'web-chat' })),
          },
          get(TOKENS.Clock),
          get(TOKENS.Ids),
          logger.child({ module: 'web-chat' }),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.WidgetSettingsRepository)
    .toDynamicValue(() => new TypeormWidgetSettingsRepository(database))
    .inSingletonScope();
  c.bind(TOKENS.WebWidget)
    .toDynamicValue(
      () =>
        new WebWidget(
          {
            settings: get(TOKENS.WidgetSettingsRepository),
            chats: get(TOKENS.WebChatRepository),
            assistants: get(TOKENS.AssistantRepository),
            webChats: get(TOKENS.WebChats),
            limiter: get(TOKENS.RateLimiter),
          },
          get(TOKENS.Ids),
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  const streams = new WidgetStreams(get(TOKENS.WebChatRepository), {
    perChat: WIDGET_STREAMS_PER_CHAT,
    heartbeatMs: config.eventStreams.heartbeatMs,
  });
  c.bind(TOKENS.WidgetStreams).toConstantValue(streams);
  const instance = get(TOKENS.Ids).token('', 12).toLowerCase();
  for (const controller of [ChatbotController, GenerateReplyController, WidgetController, WidgetSettingsController])
    c.bind(controller).toSelf().inSingletonScope();
  return {
    serving: [
      {
        name: 'widget-streams',
        async start() {
          for (const [i, topic] of [WEB_CHAT_MESSAGE_TOPIC, WEB_CHAT_DRAFT_TOPIC].entries())
            await bus.subscribe(topic, streams.receive, {
              consumer: `widget-streams.${instance}.${i}`,
              transient: true,
              maxRetries: 0,
            });
        },
        async stop() {
          streams.endAll();
        },
      },
    ],
    draining: [() => streams.endAll()],
    routeQuotas: [
      {
        method: 'POST',
        routes: ['/api/user/ai/generate-reply'],
        buckets: (principal) => [
          {
            key: `generate-reply:${principal.tokenKind}:${principal.tokenId}`,
            limit: GENERATE_REPLIES_PER_MINUTE,
            windowSeconds: 60,
          },
        ],
      },
    ],
  };
};
