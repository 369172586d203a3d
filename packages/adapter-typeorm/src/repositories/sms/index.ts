export { TypeormSmsMessageRepository } from './sms-message-repository';
export { PostgresSandboxSmsState } from './sandbox-sms-state';
