import { ApiModule } from './module';
import { foundationModule } from './foundation';
import { assistantsModule } from './assistants';
import { toolsModule } from './tools';
import { telephonyModule } from './telephony';
import { eventBackboneModule } from './event-backbone';
import { webhookDeliveryModule } from './webhook-delivery';
import { voiceCallsModule } from './voice-calls';
import { chatappModule } from './chatapp';

/** Every capability of the api, in dependency order. */
export const apiModules: readonly ApiModule[] = [foundationModule, assistantsModule, toolsModule, telephonyModule, eventBackboneModule, webhookDeliveryModule, voiceCallsModule, chatappModule];

export type { ApiModule, BackgroundTask, ModuleContext, ModuleContribution } from './module';
