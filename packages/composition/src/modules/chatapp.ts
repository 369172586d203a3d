import type { Container } from 'inversify';
import {
  AiReplies,
  ApplyDeliveryStatus,
  ChatappMessageQueries,
  ManageSenders,
  SandboxChatappControls,
  inboundMediaJob,
  InboundMediaDownloads,
  MediaStore,
  CallConfigurations,
  ChatappForAutomations,
  ConversationBrain,
  ChatappInbound,
  ChatappCallEventsInbound,
  ChatappPermissionRequests,
  ChatappProvider,
  conversationInactivityJob,
  ConversationQueries,
  CreateTemplate,
  EndInactiveConversation,
  InactivitySchedule,
  MediaFetcher,
  MediaRetention,
  SenderConnection,
  OutboundSends,
  ProviderSenders,
  ReceiveCustomerMessage,
  RecordChatappCallEvent,
  RegisterSender,
  ReplyGenerator,
  SecretCipher,
  SEND_SWEEP_INTERVAL_MS,
  SendFreeformMessage,
  SendReservationSweep,
  SendTemplateMessage,
  ToggleAi,
  TOKENS,
  type Token,
  UpdateSender,
} from '@voiceplane/application';
import {
  ChatappMediaController,
  ChatappSenderController,
  ChatappSendController,
  ConversationController,
  SandboxChatappController,
  SandboxConversationController,
  SandboxFaults,
} from '@voiceplane/adapter-http';
import { CHATAPP_SEND_FAULT, SandboxChatappProvider, SandboxReplyGenerator } from '@voiceplane/adapter-sandbox';
import {
  PostgresSandboxChatappState,
  TypeormChatappMessageRepository,
  TypeormSendReservationRepository,
  TypeormInboundMediaRepository,
  TypeormConversationRepository,
  TypeormSenderRepository,
  TypeormTemplateRepository,
} from '@voiceplane/adapter-typeorm';
import { LocalFileMediaStore, S3MediaStore } from '@voiceplane/adapter-media-store';
import type { Config } from '../config';
import { everyInterval, safetyPollMs } from './every-interval';
import { ApiModule } from './module';

/** Template and freeform sends share 5 per second per user, counted across instances. */
export const CHATAPP_SENDS_PER_SECOND = 5;
const MEDIA_SWEEP_INTERVAL_MS = 3_600_000;

function providerFor(config: Config, c: Container): ChatappProvider {
  if (config.chatappProvider === 'sandbox') {
    return new SandboxChatappProvider(c.get(TOKENS.SandboxChatappState), c.get(TOKENS.Ids), () =>
      c.get(TOKENS.Clock).now(),
    );
  }
  // The WhatsApp Cloud adapter binds itself before this module composes; without it the start fails here.
  if (!c.isBound(TOKENS.ChatappProvider))
    throw new Error(`CHATAPP_PROVIDER=${config.chatappProvider}: no adapter is bound for this chat-app provider.`);
  return c.get(TOKENS.ChatappProvider);
}

/**
 * REPLY_GENERATOR=off: chat replies are never asked for; what else would use a model (a sandbox
 * text call's answer, evaluating an ended conversation or call) fails the way an unreachable model
 * does, so those claim nothing.
 */
const NO_LANGUAGE_MODEL: ReplyGenerator = {
  nextTurn: () => Promise.reject(new Error('REPLY_GENERATOR=off: no language model is configured')),
  evaluateConversation: () => Promise.reject(new Error('REPLY_GENERATOR=off: no language model is configured')),
};

function mediaStoreFor(config: Config): MediaStore {
  const store = config.mediaStore;
  return store.kind === 'files' ? new LocalFileMediaStore(store.dir) : new S3MediaStore(store);
}

/** The demo account's sandbox sender and templates. */
async function seedDemoSender(c: Container, userId: number): Promise<void> {
  const sender = await c.get(TOKENS.RegisterSender).execute({
    userId,
    phoneNumber: '+4915112345678',
    displayName: 'Demo Sender',
    assistantId: null,
    callingEnabled: true,
    statusWebhookUrl: null,
    credentials: null,
  });
  if (!sender.ok) return;
  const create = c.get(TOKENS.CreateTemplate);
  await create.execute({
    userId,
    senderId: sender.value.id,
    name: 'welcome',
    language: 'en',
    category: 'utility',
    bodyText: 'Hello {{1}}, thanks for contacting us.',
    footerText: null,
  });
  await create.execute({
    userId,
    senderId: sender.value.id,
    name: 'call_permission',
    language: 'en',
    category: 'voice_call_request',
    bodyText: 'May we call you on this number?',
    footerText: null,
  });
}

/**
 * Chat-app messaging and conversations: senders, templates, template and
 * freeform sends with their 5/s quota, delivery statuses, inbound messages with AI replies, the
 * inactivity scheduler with its `conversation_ended` webhook, and — while the chat-app provider is
 * the sandbox — its chat-app controls, `end-now` and the `chatapp_send` fault.
 */
export const chatappModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'chatapp' });
  const sandbox = config.chatappProvider === 'sandbox';
  const prices = config.chatappPrices;
  const get = <T>(token: Token<T>): T => c.get(token);
  const single = <T>(token: Token<T>, make: () => T) => c.bind(token).toDynamicValue(make).inSingletonScope();

  single(TOKENS.SenderRepository, () => new TypeormSenderRepository(database));
  single(TOKENS.TemplateRepository, () => new TypeormTemplateRepository(database));
  single(TOKENS.ConversationRepository, () => new TypeormConversationRepository(database));
  single(TOKENS.ChatappMessageRepository, () => new TypeormChatappMessageRepository(database));
  single(TOKENS.SendReservationRepository, () => new TypeormSendReservationRepository(database));
  single(TOKENS.InboundMediaRepository, () => new TypeormInboundMediaRepository(database));
  single(TOKENS.MediaStore, () => mediaStoreFor(config));
  if (sandbox) {
    single(TOKENS.SandboxChatappState, () => new PostgresSandboxChatappState(database));
    single(TOKENS.ChatappProvider, () => providerFor(config, c));
  } else {
    providerFor(config, c);
  }
  if (config.replyGenerator === 'sandbox')
    single(TOKENS.ReplyGenerator, (): ReplyGenerator => new SandboxReplyGenerator());
  else if (config.replyGenerator === 'off') c.bind(TOKENS.ReplyGenerator).toConstantValue(NO_LANGUAGE_MODEL);
  // The OpenAI-compatible generator binds itself before this module composes; without it the start fails here.
  else if (!c.isBound(TOKENS.ReplyGenerator))
    throw new Error(`REPLY_GENERATOR=${config.replyGenerator}: no reply generator adapter is bound.`);
  // The one conversation policy: chat replies here, sandbox text calls in the calls capability.
  c.bind(ConversationBrain)
    .toDynamicValue(
      () =>
        new ConversationBrain(
          get(TOKENS.ReplyGenerator),
          get(TOKENS.CatalogRepository),
          get(TOKENS.Clock),
          logger.child({ module: 'conversation-policy' }),
          get(TOKENS.KnowledgeLookup),
        ),
    )
    .inSingletonScope();

  c.bind(ProviderSenders)
    .toDynamicValue(() => new ProviderSenders(get(TOKENS.SenderRepository), c.get(SecretCipher)))
    .inSingletonScope();
  c.bind(InactivitySchedule)
    .toDynamicValue(() => new InactivitySchedule(get(TOKENS.JobScheduler), get(TOKENS.AssistantRepository)))
    .inSingletonScope();
  c.bind(OutboundSends)
    .toDynamicValue(
      () =>
        new OutboundSends(
          {
            uow: get(TOKENS.UnitOfWork),
            users: get(TOKENS.UserRepository),
            conversations: get(TOKENS.ConversationRepository),
            messages: get(TOKENS.ChatappMessageRepository),
            reservations: get(TOKENS.SendReservationRepository),
            outbox: get(TOKENS.Outbox),
          },
          {
            balance: get(TOKENS.BalanceService),
            providerSenders: c.get(ProviderSenders),
            inactivity: c.get(InactivitySchedule),
          },
          get(TOKENS.Ids),
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  single(
    TOKENS.RegisterSender,
    () =>
      new RegisterSender(
        get(TOKENS.UnitOfWork),
        get(TOKENS.SenderRepository),
        get(TOKENS.ChatappProvider),
        c.get(SecretCipher),
        get(TOKENS.Clock),
        c.isBound(TOKENS.ChatappCallingLines) ? get(TOKENS.ChatappCallingLines) : null,
      ),
  );
  single(
    TOKENS.UpdateSender,
    () =>
      new UpdateSender(
        get(TOKENS.UnitOfWork),
        get(TOKENS.SenderRepository),
        get(TOKENS.WebhookDeliveries),
        get(TOKENS.Clock),
        c.isBound(TOKENS.ChatappCallingLines) ? get(TOKENS.ChatappCallingLines) : null,
      ),
  );
  single(
    TOKENS.CreateTemplate,
    () =>
      new CreateTemplate(
        get(TOKENS.UnitOfWork),
        get(TOKENS.SenderRepository),
        get(TOKENS.TemplateRepository),
        c.get(ProviderSenders),
        get(TOKENS.ChatappProvider),
        get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.ManageSenders,
    () =>
      new ManageSenders(
        get(TOKENS.SenderRepository),
        get(TOKENS.TemplateRepository),
        get(TOKENS.AssistantRepository),
        {
          register: get(TOKENS.RegisterSender),
          update: get(TOKENS.UpdateSender),
          createTemplate: get(TOKENS.CreateTemplate),
        },
        get(TOKENS.ChatappProvider),
      ),
  );
  single(
    TOKENS.ChatappMessageQueries,
    () =>
      new ChatappMessageQueries(
        get(TOKENS.SenderRepository),
        get(TOKENS.ConversationRepository),
        get(TOKENS.ChatappMessageRepository),
        get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.SendTemplateMessage,
    () =>
      new SendTemplateMessage(
        {
          senders: get(TOKENS.SenderRepository),
          templates: get(TOKENS.TemplateRepository),
          users: get(TOKENS.UserRepository),
        },
        { outbound: c.get(OutboundSends), provider: get(TOKENS.ChatappProvider), prices },
        get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.SendFreeformMessage,
    () =>
      new SendFreeformMessage(
        {
          senders: get(TOKENS.SenderRepository),
          conversations: get(TOKENS.ConversationRepository),
          users: get(TOKENS.UserRepository),
        },
        {
          outbound: c.get(OutboundSends),
          media: new MediaFetcher(get(TOKENS.OutboundHttpClient)),
          provider: get(TOKENS.ChatappProvider),
          prices,
        },
        get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.ApplyDeliveryStatus,
    () =>
      new ApplyDeliveryStatus(
        {
          messages: get(TOKENS.ChatappMessageRepository),
          senders: get(TOKENS.SenderRepository),
          conversations: get(TOKENS.ConversationRepository),
        },
        { deliveries: get(TOKENS.WebhookDeliveries), outbox: get(TOKENS.Outbox) },
        get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.InboundMediaDownloads,
    () =>
      new InboundMediaDownloads(
        { media: get(TOKENS.InboundMediaRepository), store: get(TOKENS.MediaStore), jobs: get(TOKENS.JobScheduler) },
        {
          provider: get(TOKENS.ChatappProvider),
          senders: get(TOKENS.SenderRepository),
          providerSenders: c.get(ProviderSenders),
          http: get(TOKENS.OutboundHttpClient),
        },
        config.publicBaseUrl,
        get(TOKENS.Clock),
        log,
      ),
  );
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => inboundMediaJob(() => get(TOKENS.InboundMediaDownloads)))
    .inSingletonScope();
  single(
    TOKENS.ReceiveCustomerMessage,
    () =>
      new ReceiveCustomerMessage(
        {
          uow: get(TOKENS.UnitOfWork),
          conversations: get(TOKENS.ConversationRepository),
          messages: get(TOKENS.ChatappMessageRepository),
          outbox: get(TOKENS.Outbox),
        },
        {
          inactivity: c.get(InactivitySchedule),
          replies: new AiReplies(
            {
              assistants: get(TOKENS.AssistantRepository),
              conversations: get(TOKENS.ConversationRepository),
              messages: get(TOKENS.ChatappMessageRepository),
            },
            { outbound: c.get(OutboundSends), provider: get(TOKENS.ChatappProvider), prices },
            {
              brain: c.get(ConversationBrain),
              configurations: c.get(CallConfigurations),
              tools: get(TOKENS.InvokeToolForConversation),
              repliesOn: config.replyGenerator !== 'off',
            },
            get(TOKENS.Clock),
            log,
          ),
          media: get(TOKENS.InboundMediaDownloads),
        },
        get(TOKENS.Ids),
        get(TOKENS.Clock),
      ),
  );
  if (sandbox) {
    single(
      TOKENS.SandboxChatappControls,
      () =>
        new SandboxChatappControls(
          {
            senders: get(TOKENS.SenderRepository),
            templates: get(TOKENS.TemplateRepository),
            conversations: get(TOKENS.ConversationRepository),
            messages: get(TOKENS.ChatappMessageRepository),
          },
          get(TOKENS.UnitOfWork),
          get(TOKENS.ReceiveCustomerMessage),
          get(TOKENS.ApplyDeliveryStatus),
          get(TOKENS.SandboxChatappState),
          get(TOKENS.Clock),
        ),
    );
  }
  // The chat app's call events are recorded against chat-app calls (the report repository is chat-app voice's).
  single(
    TOKENS.ChatappInboundHandler,
    () =>
      new ChatappCallEventsInbound(
        new ChatappInbound(
          {
            senders: get(TOKENS.SenderRepository),
            templates: get(TOKENS.TemplateRepository),
            messages: get(TOKENS.ChatappMessageRepository),
            conversations: get(TOKENS.ConversationRepository),
          },
          {
            customerMessages: get(TOKENS.ReceiveCustomerMessage),
            deliveryStatus: get(TOKENS.ApplyDeliveryStatus),
            permissionAnswers: get(TOKENS.AnswerCallPermission),
            connection: new SenderConnection(
              get(TOKENS.SenderRepository),
              c.get(ProviderSenders),
              get(TOKENS.ChatappProvider),
              get(TOKENS.Clock),
              log,
            ),
          },
          get(TOKENS.Clock),
          log,
        ),
        new RecordChatappCallEvent(get(TOKENS.SenderRepository), get(TOKENS.ChatappCallReportRepository), log),
      ),
  );
  // What chat-app voice reads and sends through this capability.
  c.bind(TOKENS.VoiceSenderLookup)
    .toDynamicValue(() => get(TOKENS.SenderRepository))
    .inSingletonScope();
  c.bind(TOKENS.VoiceConversationLookup)
    .toDynamicValue(() => get(TOKENS.ConversationRepository))
    .inSingletonScope();
  c.bind(TOKENS.VoiceTemplateLookup)
    .toDynamicValue(() => get(TOKENS.TemplateRepository))
    .inSingletonScope();
  // What automations' chat-app step and apply checks use.
  single(
    TOKENS.AutomationChatapp,
    () =>
      new ChatappForAutomations(
        get(TOKENS.SenderRepository),
        get(TOKENS.TemplateRepository),
        get(TOKENS.SendTemplateMessage),
      ),
  );
  single(
    TOKENS.PermissionRequestSender,
    () => new ChatappPermissionRequests(c.get(OutboundSends), get(TOKENS.ChatappProvider)),
  );
  single(
    TOKENS.ConversationQueries,
    () => new ConversationQueries(get(TOKENS.ConversationRepository), get(TOKENS.ToolInvocationLog)),
  );
  single(
    TOKENS.ToggleAi,
    () => new ToggleAi(get(TOKENS.UnitOfWork), get(TOKENS.ConversationRepository), get(TOKENS.Clock)),
  );
  single(
    TOKENS.EndInactiveConversation,
    () =>
      new EndInactiveConversation(
        get(TOKENS.UnitOfWork),
        {
          conversations: get(TOKENS.ConversationRepository),
          senders: get(TOKENS.SenderRepository),
          assistants: get(TOKENS.AssistantRepository),
        },
        { schedule: c.get(InactivitySchedule), deliveries: get(TOKENS.WebhookDeliveries), outbox: get(TOKENS.Outbox) },
        { generator: get(TOKENS.ReplyGenerator), catalog: get(TOKENS.CatalogRepository), log },
        get(TOKENS.Clock),
      ),
  );
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => conversationInactivityJob(get(TOKENS.EndInactiveConversation)))
    .inSingletonScope();

  single(
    TOKENS.SendReservationSweep,
    () =>
      new SendReservationSweep(
        { reservations: get(TOKENS.SendReservationRepository), senders: get(TOKENS.SenderRepository) },
        {
          providerSenders: c.get(ProviderSenders),
          provider: get(TOKENS.ChatappProvider),
          outbound: c.get(OutboundSends),
        },
        get(TOKENS.Clock),
        log,
      ),
  );
  // Sends whose process died between reservation and settlement: the reservation survives the restart.
  const sendSettlement = everyInterval(
    'chatapp-send-settlement',
    safetyPollMs(config, SEND_SWEEP_INTERVAL_MS),
    () => get(TOKENS.SendReservationSweep).sweep(),
    log,
  );

  SandboxFaults.in(c).register(
    CHATAPP_SEND_FAULT,
    sandbox
      ? async ({ userId, targetId, count }) => {
          if (targetId !== null && (await get(TOKENS.SenderRepository).findOwned(userId, targetId)) === null)
            return 'not_found';
          return {
            remaining: await get(TOKENS.SandboxChatappState).armFault({
              kind: CHATAPP_SEND_FAULT,
              userId,
              targetId,
              count,
            }),
          };
        }
      : null,
  );

  // The sandbox `end-now` drives voiceplane's own scheduler: it exists whenever any provider is the sandbox.
  const anySandbox =
    sandbox || [config.voiceRuntime, config.sipProvisioner, config.numberInventory].includes('sandbox');
  const controllers = [
    ChatappSenderController,
    ChatappSendController,
    ConversationController,
    ChatappMediaController,
    ...(sandbox ? [SandboxChatappController] : []),
    ...(anySandbox ? [SandboxConversationController] : []),
  ];
  for (const controller of controllers) c.bind(controller).toSelf().inSingletonScope();
  let retention: MediaRetention | null = null;
  const sweep = () =>
    (retention ??= new MediaRetention(
      get(TOKENS.InboundMediaRepository),
      get(TOKENS.MediaStore),
      config.mediaRetentionDays,
      get(TOKENS.Clock),
      log,
    )).sweep();
  return {
    // Hourly, wherever background work runs: expired copies and the files of deleted media leave the store.
    background: [sendSettlement, everyInterval('chatapp-media-retention', MEDIA_SWEEP_INTERVAL_MS, sweep, log)],
    routeQuotas: [
      {
        method: 'POST',
        routes: ['/api/user/chatapp/send', '/api/user/chatapp/send-freeform'],
        buckets: (principal) => [
          { key: `chatapp-send:${principal.userId}`, limit: CHATAPP_SENDS_PER_SECOND, windowSeconds: 1 },
        ],
      },
    ],
    seedDemo: sandbox ? (userId) => seedDemoSender(c, userId) : undefined,
  };
};
