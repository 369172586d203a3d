import { AnswerCallPermission, callStartedConsumer, TOKENS, VoiceWebhook } from '@voiceplane/application';
import { VoiceWebhookController, voiceWebhookRouteDocs } from '@voiceplane/adapter-http';
import { TypeormCallPermissionRepository, TypeormVoiceWebhookSettingRepository } from '@voiceplane/adapter-typeorm';
import { ApiModule } from './module';

/**
 * Chat-app voice (CONTRACT §9): customers' call permissions, their answers, and the account voice
 * webhook with its `call_started` and `call_permission_granted` events.
 */
export const chatappVoiceModule: ApiModule = ({ container: c, database }) => {
  c.bind(TOKENS.CallPermissionRepository).toConstantValue(new TypeormCallPermissionRepository(database));
  c.bind(TOKENS.VoiceWebhookSettingRepository).toConstantValue(new TypeormVoiceWebhookSettingRepository(database));
  c.bind(TOKENS.VoiceWebhook).toDynamicValue((ctx) => new VoiceWebhook(
    ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.VoiceWebhookSettingRepository), ctx.get(TOKENS.WebhookDeliveries), ctx.get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.AnswerCallPermission).toDynamicValue((ctx) => new AnswerCallPermission(
    ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.CallPermissionRepository), ctx.get(TOKENS.VoiceWebhook), ctx.get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.EventConsumer).toDynamicValue((ctx) =>
    callStartedConsumer(ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.ProcessedEvents), ctx.get(TOKENS.VoiceWebhook))).inSingletonScope();
  c.bind(VoiceWebhookController).toSelf().inSingletonScope();
  return { routeDocs: voiceWebhookRouteDocs };
};
