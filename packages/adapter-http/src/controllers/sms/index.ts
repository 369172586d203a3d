export { SmsController } from './sms-controller';
export { SmsStatusController } from './sms-status-controller';
export { SandboxSmsController } from './sandbox-sms-controller';
