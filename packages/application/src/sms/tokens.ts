import { token } from '../common';
import type { SmsMessageRepository, SmsProvider, SmsStatusGate } from './ports';
import type { SendSms } from './send-sms';
import type { SmsMessages } from './sms-status';
import type { SandboxSmsControls } from './sandbox-sms-controls';
import type { SmsSettlementSweep } from './sms-settlement-sweep';

export const SMS_TOKENS = {
  SmsProvider: token<SmsProvider>('SmsProvider'),
  SmsMessageRepository: token<SmsMessageRepository>('SmsMessageRepository'),
  SendSms: token<SendSms>('SendSms'),
  SmsMessages: token<SmsMessages>('SmsMessages'),
  /** Settles or releases sends whose process died before settling. */
  SmsSettlementSweep: token<SmsSettlementSweep>('SmsSettlementSweep'),
  /** Bound only with a real SMS provider: its signed delivery reports. */
  SmsStatusGate: token<SmsStatusGate>('SmsStatusGate'),
  /** Bound only while the SMS provider is the sandbox. */
  SandboxSmsControls: token<SandboxSmsControls>('SandboxSmsControls'),
} as const;
