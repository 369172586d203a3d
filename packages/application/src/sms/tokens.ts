import { token } from '../common/token';
import type { SmsMessageRepository, SmsProvider, SmsStatusGate } from './ports';
import type { SendSms } from './send-sms';
import type { SmsMessages } from './sms-status';

export const SMS_TOKENS = {
  SmsProvider: token<SmsProvider>('SmsProvider'),
  SmsMessageRepository: token<SmsMessageRepository>('SmsMessageRepository'),
  SendSms: token<SendSms>('SendSms'),
  SmsMessages: token<SmsMessages>('SmsMessages'),
  /** Bound only with a real SMS provider: its signed delivery reports. */
  SmsStatusGate: token<SmsStatusGate>('SmsStatusGate'),
} as const;
