import { ApiModule } from './module';
import { foundationModule } from './foundation';
import { assistantsModule } from './assistants';
import { knowledgeBasesModule } from './knowledge-bases';
import { toolsModule } from './tools';
import { telephonyModule } from './telephony';
import { eventBackboneModule } from './event-backbone';
import { webhookDeliveryModule } from './webhook-delivery';
import { voiceCallsModule } from './voice-calls';
import { automationsModule } from './automations';
import { chatappModule } from './chatapp';
import { chatappProvidersModule } from './chatapp-providers';
import { chatappVoiceModule } from './chatapp-voice';
import { billingGatewayModule } from './billing-gateway';
import { accountEventsModule } from './account-events';
import { analyticsModule } from './analytics';
import { webChatModule } from './web-chat';
import { campaignsModule } from './campaigns';
import { smsModule } from './sms';

/** Every capability of the api, in dependency order. */
export const apiModules: readonly ApiModule[] = [
  foundationModule,
  assistantsModule,
  knowledgeBasesModule,
  toolsModule,
  telephonyModule,
  eventBackboneModule,
  webhookDeliveryModule,
  voiceCallsModule,
  billingGatewayModule,
  chatappProvidersModule,
  chatappModule,
  webChatModule,
  chatappVoiceModule,
  automationsModule,
  accountEventsModule,
  analyticsModule,
  campaignsModule,
  smsModule,
];

export type { ApiModule, BackgroundTask, ModuleContext, ModuleContribution } from './module';
