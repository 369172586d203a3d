import type { Container } from 'inversify';
import {
  AcceptInboundCall,
  CallConfigurations,
  CallQueries,
  DeleteCall,
  SearchKnowledgeForCall,
  CallRecordings,
  CallerLines,
  callDispatchWatchdog,
  ConversationBrain,
  EndCall,
  MakeCall,
  RecordCallEvent,
  SandboxTextCalls,
  TOKENS,
  type Token,
  VoiceRuntime,
} from '@voiceplane/application';
import {
  CallController,
  CallRecordingController,
  LiveKitRecordingController,
  RuntimeCallController,
  RuntimeToolCallController,
  SandboxCallController,
  SandboxFaults,
  RuntimeKnowledgeController,
} from '@voiceplane/adapter-http';
import { SandboxVoiceRuntime } from '@voiceplane/adapter-sandbox';
import { LiveKitRecordingNotices, LiveKitVoiceRuntime } from '@voiceplane/adapter-livekit';
import { TypeormCallRepository, TypeormCallToolContext } from '@voiceplane/adapter-typeorm';
import type { Config } from '../config';
import { ApiModule } from './module';

function voiceRuntimeFor(config: Config, c: Container): VoiceRuntime {
  if (config.voiceRuntime === 'livekit' && config.livekit) {
    const { url, apiKey, apiSecret, agentName, outboundTrunkId, platformCallerNumber } = config.livekit;
    return new LiveKitVoiceRuntime({
      url,
      apiKey,
      apiSecret,
      agentName,
      providerTrunkId: outboundTrunkId,
      platformLine: platformCallerNumber ? { phoneNumberId: null, phoneNumber: platformCallerNumber, sip: null } : null,
    });
  }
  // The sandbox stores a short recording where the recording route reads, as a LiveKit call's egress does.
  return new SandboxVoiceRuntime(c.get(TOKENS.RecordCallEvent), c.get(TOKENS.CallRepository), c.get(TOKENS.Ids), {
    media: c.get(TOKENS.MediaStore),
    publicBaseUrl: config.publicBaseUrl,
  });
}

/**
 * Calls: make_call, calls list/get, the voice-runtime ingress, the call end with its
 * charge and `post_call` webhook, the mid-call tools' view of a call, and — while the voice
 * runtime is the sandbox — `answer`, `finish`, `say` and the `call_dispatch` fault.
 */
export const voiceCallsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'calls' });
  const prices = config.callMinutePrices;
  const sandbox = config.voiceRuntime === 'sandbox';
  const get = <T>(token: Token<T>): T => c.get(token);
  c.bind(TOKENS.CallRepository)
    .toDynamicValue(() => new TypeormCallRepository(database, get(TOKENS.Outbox)))
    .inSingletonScope();

  // Resolved on first use: the collaborators come from modules that may compose later.
  c.bind(EndCall)
    .toDynamicValue(
      () =>
        new EndCall(
          get(TOKENS.AssistantRepository),
          get(TOKENS.BalanceService),
          get(TOKENS.WebhookDeliveries),
          prices,
          c.isBound(TOKENS.CampaignCallEnds) ? get(TOKENS.CampaignCallEnds) : null,
        ),
    )
    .inSingletonScope();
  // Ends the runtime did not evaluate are read by the same evaluator as conversations.
  c.bind(TOKENS.RecordCallEvent)
    .toDynamicValue(
      () =>
        new RecordCallEvent(get(TOKENS.CallRepository), c.get(EndCall), get(TOKENS.Clock), {
          generator: get(TOKENS.ReplyGenerator),
          catalog: get(TOKENS.CatalogRepository),
          log,
        }),
    )
    .inSingletonScope();
  c.bind(TOKENS.VoiceRuntime)
    .toDynamicValue(() => voiceRuntimeFor(config, c))
    .inSingletonScope();
  c.bind(CallConfigurations)
    .toDynamicValue(
      () =>
        new CallConfigurations(
          get(TOKENS.ToolRepository),
          get(TOKENS.CatalogRepository),
          get(TOKENS.AssistantRepository),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.MakeCall)
    .toDynamicValue(
      () =>
        new MakeCall(
          {
            uow: get(TOKENS.UnitOfWork),
            assistants: get(TOKENS.AssistantRepository),
            users: get(TOKENS.UserRepository),
            calls: get(TOKENS.CallRepository),
            doNotCall: get(TOKENS.DoNotCallList),
          },
          {
            lines: new CallerLines(
              get(TOKENS.PhoneNumberRepository),
              get(TOKENS.SipTrunkRepository),
              get(TOKENS.VoiceRuntime).platformLine,
            ),
            configurations: c.get(CallConfigurations),
            prices,
          },
          {
            scheduler: get(TOKENS.JobScheduler),
            runtime: get(TOKENS.VoiceRuntime),
            events: get(TOKENS.RecordCallEvent),
          },
          get(TOKENS.Clock),
          log,
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.AcceptInboundCall)
    .toDynamicValue(
      () =>
        new AcceptInboundCall(
          get(TOKENS.CallRepository),
          get(TOKENS.AssistantRepository),
          get(TOKENS.UserRepository),
          c.get(CallConfigurations),
          prices,
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  // Recordings live in the media store; on LiveKit its signed egress webhooks say when one was lost.
  const livekit = config.voiceRuntime === 'livekit' ? config.livekit : null;
  c.bind(TOKENS.CallRecordings)
    .toDynamicValue(
      () =>
        new CallRecordings(
          get(TOKENS.CallRepository),
          get(TOKENS.MediaStore),
          livekit ? new LiveKitRecordingNotices(livekit) : null,
          get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  // Chat-app reports come from the chat-app voice module, composed later: resolved on first read.
  c.bind(TOKENS.CallQueries)
    .toDynamicValue(
      () =>
        new CallQueries(
          get(TOKENS.CallRepository),
          get(TOKENS.ToolInvocationLog),
          get(TOKENS.ChatappCallReportRepository),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.DeleteCall)
    .toDynamicValue(
      () =>
        new DeleteCall({
          calls: get(TOKENS.CallRepository),
          toolLog: get(TOKENS.ToolInvocationLog),
          media: get(TOKENS.MediaStore),
        }),
    )
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => callDispatchWatchdog(get(TOKENS.RecordCallEvent)))
    .inSingletonScope();

  // The mid-call tool gateway reads calls through this port; its runtime route exists once calls do.
  c.bind(TOKENS.ToolCallContextSource).toConstantValue(new TypeormCallToolContext(database));
  if (!c.isBound(RuntimeToolCallController)) c.bind(RuntimeToolCallController).toSelf().inSingletonScope();
  // The voice agent reads its assistant's knowledge base through the same call context.
  c.bind(TOKENS.SearchKnowledgeForCall)
    .toDynamicValue(() => new SearchKnowledgeForCall(get(TOKENS.ToolCallContextSource), get(TOKENS.KnowledgeLookup)))
    .inSingletonScope();
  c.bind(RuntimeKnowledgeController).toSelf().inSingletonScope();

  SandboxFaults.in(c).register(
    'call_dispatch',
    sandbox
      ? async ({ userId, targetId, count }) => {
          if (targetId !== null && (await get(TOKENS.PhoneNumberRepository).find(userId, targetId)) === null)
            return 'not_found';
          return {
            remaining: (get(TOKENS.VoiceRuntime) as SandboxVoiceRuntime).faults.arm({
              accountId: userId,
              targetId,
              count,
            }),
          };
        }
      : null,
  );
  if (sandbox) {
    c.bind(TOKENS.SandboxCallControls)
      .toDynamicValue(() => get(TOKENS.VoiceRuntime) as SandboxVoiceRuntime)
      .inSingletonScope();
    c.bind(TOKENS.SandboxTextCalls)
      .toDynamicValue(
        () =>
          new SandboxTextCalls(
            get(TOKENS.CallRepository),
            get(TOKENS.RecordCallEvent),
            c.get(ConversationBrain),
            get(TOKENS.InvokeToolForCall),
            get(TOKENS.Ids),
            get(TOKENS.Clock),
            get(TOKENS.ManageDoNotCall),
          ),
      )
      .inSingletonScope();
  }

  const controllers = [
    CallController,
    CallRecordingController,
    RuntimeCallController,
    ...(sandbox ? [SandboxCallController] : []),
    ...(livekit ? [LiveKitRecordingController] : []),
  ];
  for (const controller of controllers) c.bind(controller).toSelf().inSingletonScope();
  return {};
};
