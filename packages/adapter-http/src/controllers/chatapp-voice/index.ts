export { VoiceWebhookController, voiceWebhookRouteDocs } from './voice-webhook-controller';
