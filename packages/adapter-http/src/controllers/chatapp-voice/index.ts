export { VoiceWebhookController } from './voice-webhook-controller';
export { ChatappVoiceController } from './chatapp-voice-controller';
export { SandboxPermissionController } from './sandbox-permission-controller';
