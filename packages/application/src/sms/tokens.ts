import { token } from '../common/token';
import type { SmsMessageRepository, SmsProvider, SmsStatusGate } from './ports';
import type { SendSms } from './send-sms';
import type { SmsMessages } from './sms-status';
import type { SandboxSmsControls } from './sandbox-sms-controls';

export const SMS_TOKENS = {
  SmsProvider: token<SmsProvider>('SmsProvider'),
  SmsMessageRepository: token<SmsMessageRepository>('SmsMessageRepository'),
  SendSms: token<SendSms>('SendSms'),
  SmsMessages: token<SmsMessages>('SmsMessages'),
  /** Bound only with a real SMS provider: its signed delivery reports. */
  SmsStatusGate: token<SmsStatusGate>('SmsStatusGate'),
  /** Bound only while the SMS provider is the sandbox. */
  SandboxSmsControls: token<SandboxSmsControls>('SandboxSmsControls'),
} as const;
