export { VoiceWebhookController, voiceWebhookRouteDocs } from './voice-webhook-controller';
export { ChatappVoiceController, chatappVoiceRouteDocs } from './chatapp-voice-controller';
export { SandboxPermissionController, sandboxPermissionRouteDocs } from './sandbox-permission-controller';
