import {
  AnswerCallPermission,
  askCounterResetConsumer,
  callStartedConsumer,
  chatappCallDispatchConsumer,
  PlaceChatappCall,
  ReadCallPermission,
  RequestCallPermission,
  TOKENS,
  VoiceFacts,
  voiceQuotaKey,
  VoiceWebhook,
  CallConfigurations,
} from '@voiceplane/application';
import { CHATAPP_CALL_QUOTAS, PERMISSION_REQUEST_QUOTAS, UserQuota } from '@voiceplane/domain';
import {
  ChatappVoiceController,
  RouteQuota,
  SandboxPermissionController,
  VoiceWebhookController,
} from '@voiceplane/adapter-http';
import {
  TypeormCallPermissionRepository,
  TypeormChatappCallReportRepository,
  TypeormVoiceWebhookSettingRepository,
} from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

function userQuota(route: 'request' | 'call', path: string, quotas: readonly UserQuota[]): RouteQuota {
  return {
    method: 'POST',
    routes: [path],
    buckets: (principal) =>
      quotas.map((q) => ({
        key: voiceQuotaKey(route, principal.userId),
        limit: q.limit,
        windowSeconds: q.windowSeconds,
      })),
  };
}

/**
 * Chat-app voice: customers' call permissions and their answers, the preflight,
 * chat-app calls placed by a worker, and the account voice webhook with `call_started` and
 * `call_permission_granted`. It reads the chat-app capability's senders, conversations and
 * templates (`VoiceSenderLookup`, …) and sends request templates through it: it composes after it.
 */
export const chatappVoiceModule: ApiModule = ({ container: c, database, config, logger }) => {
  // Bound with a real chat app on LiveKit; the sandbox needs no calling line.
  const callingLines = () => (c.isBound(TOKENS.ChatappCallingLines) ? c.get(TOKENS.ChatappCallingLines) : null);
  c.bind(TOKENS.CallPermissionRepository).toConstantValue(new TypeormCallPermissionRepository(database));
  c.bind(TOKENS.ChatappCallReportRepository).toConstantValue(new TypeormChatappCallReportRepository(database));
  c.bind(TOKENS.VoiceWebhookSettingRepository).toConstantValue(new TypeormVoiceWebhookSettingRepository(database));
  c.bind(TOKENS.VoiceWebhook)
    .toDynamicValue(
      (ctx) =>
        new VoiceWebhook(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.VoiceWebhookSettingRepository),
          ctx.get(TOKENS.WebhookDeliveries),
          ctx.get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.AnswerCallPermission)
    .toDynamicValue(
      (ctx) =>
        new AnswerCallPermission(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.CallPermissionRepository),
          ctx.get(TOKENS.VoiceWebhook),
          ctx.get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue((ctx) =>
      callStartedConsumer(ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.ProcessedEvents), ctx.get(TOKENS.VoiceWebhook)),
    )
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue((ctx) =>
      askCounterResetConsumer(
        ctx.get(TOKENS.UnitOfWork),
        ctx.get(TOKENS.ProcessedEvents),
        ctx.get(TOKENS.CallPermissionRepository),
      ),
    )
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue((ctx) =>
      chatappCallDispatchConsumer({
        uow: ctx.get(TOKENS.UnitOfWork),
        processed: ctx.get(TOKENS.ProcessedEvents),
        calls: ctx.get(TOKENS.CallRepository),
        assistants: ctx.get(TOKENS.AssistantRepository),
        runtime: ctx.get(TOKENS.VoiceRuntime),
        events: ctx.get(TOKENS.RecordCallEvent),
        scheduler: ctx.get(TOKENS.JobScheduler),
        clock: ctx.get(TOKENS.Clock),
        log: logger.child({ module: 'chatapp-voice' }),
        callingLines: callingLines(),
      }),
    )
    .inSingletonScope();
  c.bind(VoiceWebhookController).toSelf().inSingletonScope();

  c.bind(VoiceFacts)
    .toDynamicValue(
      (ctx) =>
        new VoiceFacts(
          {
            users: ctx.get(TOKENS.UserRepository),
            assistants: ctx.get(TOKENS.AssistantRepository),
            templates: ctx.get(TOKENS.VoiceTemplateLookup),
            conversations: ctx.get(TOKENS.VoiceConversationLookup),
            permissions: ctx.get(TOKENS.CallPermissionRepository),
            calls: ctx.get(TOKENS.CallRepository),
          },
          ctx.get(TOKENS.RateLimiter),
          config.callMinutePrices,
          callingLines(),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ReadCallPermission)
    .toDynamicValue(
      (ctx) => new ReadCallPermission(ctx.get(TOKENS.VoiceSenderLookup), ctx.get(VoiceFacts), ctx.get(TOKENS.Clock)),
    )
    .inSingletonScope();
  c.bind(TOKENS.RequestCallPermission)
    .toDynamicValue(
      (ctx) =>
        new RequestCallPermission(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.VoiceSenderLookup),
          ctx.get(TOKENS.CallPermissionRepository),
          ctx.get(VoiceFacts),
          ctx.get(TOKENS.PermissionRequestSender),
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.ReadCallPermission),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.PlaceChatappCall)
    .toDynamicValue(
      (ctx) =>
        new PlaceChatappCall(
          {
            uow: ctx.get(TOKENS.UnitOfWork),
            senders: ctx.get(TOKENS.VoiceSenderLookup),
            calls: ctx.get(TOKENS.CallRepository),
            doNotCall: ctx.get(TOKENS.DoNotCallList),
          },
          ctx.get(VoiceFacts),
          ctx.get(CallConfigurations),
          { outbox: ctx.get(TOKENS.Outbox), scheduler: ctx.get(TOKENS.JobScheduler) },
          ctx.get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(ChatappVoiceController).toSelf().inSingletonScope();
  // The sandbox permission reply exists while the chat-app provider is the sandbox.
  const sandbox = config.chatappProvider === 'sandbox';
  if (sandbox) c.bind(SandboxPermissionController).toSelf().inSingletonScope();
  return {
    routeQuotas: [
      userQuota('request', '/api/user/chatapp/voice/request', PERMISSION_REQUEST_QUOTAS),
      userQuota('call', '/api/user/chatapp/voice/call', CHATAPP_CALL_QUOTAS),
    ],
  };
};
