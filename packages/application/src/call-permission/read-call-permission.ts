import {
  CallPermissionReadout,
  CHATAPP_CALL_QUOTAS,
  E164_PATTERN,
  err,
  ok,
  PERMISSION_REQUEST_QUOTAS,
  readCallPermission,
  Result,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { VoiceSenderLookup } from './ports';
import { VoiceFacts } from './voice-facts';

export interface CallPermissionView {
  readonly senderId: number;
  readonly customerPhone: string;
  /** The contact's conversation UUID; null when none exists. */
  readonly conversationUuid: string | null;
  readonly readout: CallPermissionReadout;
}

export type ReadCallPermissionRefusal = { readonly code: 'sender_not_found' } | { readonly code: 'invalid_phone' };

/**
 * `GET /api/user/chatapp/voice/permission`: the permission as read now and, for the
 * request and call routes, whether each would pass, the first reason it would not and when waiting
 * would help. Read-only: the quotas are read without counting.
 */
export class ReadCallPermission {
  constructor(
    private readonly senders: VoiceSenderLookup,
    private readonly facts: VoiceFacts,
    private readonly clock: Clock,
  ) {}

  async read(
    userId: number,
    senderId: number,
    customerPhone: string,
  ): Promise<Result<CallPermissionView, ReadCallPermissionRefusal>> {
    const sender = await this.senders.findOwned(userId, senderId);
    if (sender === null) return err({ code: 'sender_not_found' });
    if (!E164_PATTERN.test(customerPhone)) return err({ code: 'invalid_phone' });
    const now = this.clock.now();
    const { request, call } = await this.facts.forPreflight(sender, customerPhone, now);
    const readout = readCallPermission(
      {
        ...request,
        ...call,
        requestQuota: await this.facts.quotaUsage('request', userId, PERMISSION_REQUEST_QUOTAS),
        callQuota: await this.facts.quotaUsage('call', userId, CHATAPP_CALL_QUOTAS),
      },
      now,
    );
    return ok({ senderId: sender.id, customerPhone, conversationUuid: request.conversation?.uuid ?? null, readout });
  }
}
