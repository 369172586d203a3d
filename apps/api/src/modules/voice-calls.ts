import type { Container } from 'inversify';
import {
  AcceptInboundCall, AssistantRepository, BalanceService, CallConfigurations, CallerLines, callDispatchWatchdog, CallRepository,
  CatalogRepository, Clock, EndCall, Ids, MakeCall, Outbox, PhoneNumberRepository, RecordCallEvent,
  SipTrunkRepository, TOKENS, ToolRepository, UnitOfWork, UserRepository, VoiceRuntime, WebhookDeliveries,
} from '@voiceplane/application';
import {
  CallController, callRouteDocs, RuntimeCallController, runtimeCallRouteDocs, RuntimeToolCallController, runtimeToolCallRouteDocs, SandboxCallController,
  sandboxCallRouteDocs, SandboxFaults,
} from '@voiceplane/adapter-http';
import { SandboxVoiceRuntime } from '@voiceplane/adapter-sandbox';
import { LiveKitVoiceRuntime } from '@voiceplane/adapter-livekit';
import { TypeormCallRepository, TypeormCallToolContext } from '@voiceplane/adapter-typeorm';
import type { Config } from '../config';
import { ApiModule } from './module';

function voiceRuntimeFor(config: Config, c: Container): VoiceRuntime {
  if (config.voiceRuntime === 'livekit' && config.livekit) {
    const { url, apiKey, apiSecret, agentName, outboundTrunkId, platformCallerNumber } = config.livekit;
    return new LiveKitVoiceRuntime({
      url, apiKey, apiSecret, agentName, providerTrunkId: outboundTrunkId,
      platformLine: platformCallerNumber ? { phoneNumberId: null, phoneNumber: platformCallerNumber, sip: null } : null,
    });
  }
  return new SandboxVoiceRuntime(c.get<RecordCallEvent>(TOKENS.RecordCallEvent), c.get<CallRepository>(TOKENS.CallRepository), c.get<Ids>(TOKENS.Ids));
}

/**
 * Calls (CONTRACT §7): make_call, calls list/get, the voice-runtime ingress, the call end with its
 * charge and `post_call` webhook, the mid-call tools' view of a call, and — while the voice
 * runtime is the sandbox — S8/S9 and the `call_dispatch` fault (§14, D3).
 */
export const voiceCallsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'calls' });
  const prices = config.callMinutePrices;
  const sandbox = config.voiceRuntime === 'sandbox';
  const get = <T>(token: symbol): T => c.get<T>(token);
  c.bind(TOKENS.CallRepository).toDynamicValue(() => new TypeormCallRepository(database, get<Outbox>(TOKENS.Outbox))).inSingletonScope();

  // Resolved on first use: the collaborators come from modules that may compose later.
  c.bind(EndCall).toDynamicValue(() => new EndCall(
    get<AssistantRepository>(TOKENS.AssistantRepository), get<BalanceService>(TOKENS.BalanceService), get<WebhookDeliveries>(TOKENS.WebhookDeliveries), prices,
  )).inSingletonScope();
  c.bind(TOKENS.RecordCallEvent).toDynamicValue(() => new RecordCallEvent(
    get<CallRepository>(TOKENS.CallRepository), c.get(EndCall), get<Clock>(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.VoiceRuntime).toDynamicValue(() => voiceRuntimeFor(config, c)).inSingletonScope();
  c.bind(CallConfigurations).toDynamicValue(() => new CallConfigurations(
    get<ToolRepository>(TOKENS.ToolRepository), get<CatalogRepository>(TOKENS.CatalogRepository),
  )).inSingletonScope();
  c.bind(TOKENS.MakeCall).toDynamicValue(() => new MakeCall(
    get<UnitOfWork>(TOKENS.UnitOfWork), get<AssistantRepository>(TOKENS.AssistantRepository), get<UserRepository>(TOKENS.UserRepository),
    new CallerLines(get<PhoneNumberRepository>(TOKENS.PhoneNumberRepository), get<SipTrunkRepository>(TOKENS.SipTrunkRepository), get<VoiceRuntime>(TOKENS.VoiceRuntime).platformLine),
    c.get(CallConfigurations), get<CallRepository>(TOKENS.CallRepository), get(TOKENS.JobScheduler), get<VoiceRuntime>(TOKENS.VoiceRuntime),
    get<RecordCallEvent>(TOKENS.RecordCallEvent), prices, get<Clock>(TOKENS.Clock), log,
  )).inSingletonScope();
  c.bind(TOKENS.AcceptInboundCall).toDynamicValue(() => new AcceptInboundCall(
    get<CallRepository>(TOKENS.CallRepository), get<AssistantRepository>(TOKENS.AssistantRepository), get<UserRepository>(TOKENS.UserRepository),
    c.get(CallConfigurations), prices, get<Clock>(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.JobHandler).toDynamicValue(() => callDispatchWatchdog(get<RecordCallEvent>(TOKENS.RecordCallEvent))).inSingletonScope();

  // The mid-call tool gateway reads calls through this port; its runtime route exists once calls do.
  c.bind(TOKENS.ToolCallContextSource).toConstantValue(new TypeormCallToolContext(database));
  if (!c.isBound(RuntimeToolCallController)) c.bind(RuntimeToolCallController).toSelf().inSingletonScope();

  SandboxFaults.in(c).register('call_dispatch', sandbox
    ? async ({ userId, targetId, count }) => {
      if (targetId !== null && (await get<PhoneNumberRepository>(TOKENS.PhoneNumberRepository).find(userId, targetId)) === null) return 'not_found';
      return { remaining: get<SandboxVoiceRuntime>(TOKENS.VoiceRuntime).faults.arm({ accountId: userId, targetId, count }) };
    }
    : null);
  if (sandbox) c.bind(TOKENS.SandboxCallControls).toDynamicValue(() => get<SandboxVoiceRuntime>(TOKENS.VoiceRuntime)).inSingletonScope();

  for (const controller of [CallController, RuntimeCallController, ...(sandbox ? [SandboxCallController] : [])]) c.bind(controller).toSelf().inSingletonScope();
  return { routeDocs: [...callRouteDocs, ...runtimeCallRouteDocs, ...runtimeToolCallRouteDocs, ...(sandbox ? sandboxCallRouteDocs : [])] };
};
