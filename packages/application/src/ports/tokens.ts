import type { TargetUrlPolicy } from '@voiceplane/domain';
import { token } from '../common';
import type { Clock } from './clock';
import type { Ids } from './ids';
import type { MessageBus } from './message-bus';
import type { OutboundHttpClient } from './outbound-http';
import type { Outbox } from './outbox';
import type { UnitOfWork } from './unit-of-work';

/** The ports every capability shares: time, ids, transactions, events, outgoing requests. */
export const CORE_TOKENS = {
  Clock: token<Clock>('Clock'),
  Ids: token<Ids>('Ids'),
  UnitOfWork: token<UnitOfWork>('UnitOfWork'),
  MessageBus: token<MessageBus>('MessageBus'),
  Outbox: token<Outbox>('Outbox'),
  OutboundHttpClient: token<OutboundHttpClient>('OutboundHttpClient'),
  /** The one policy for requests sent to user-given addresses (webhooks, tools). */
  TargetUrlPolicy: token<TargetUrlPolicy>('TargetUrlPolicy'),
} as const;
