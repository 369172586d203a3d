import {
  acceptCallPermission,
  CallPermission,
  CallPermissionAnswerRefusal,
  CallPermissionGranted,
  CallPermissionTransition,
  declineCallPermission,
  ok,
  Result,
  revokeCallPermission,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { CallPermissionRepository } from './ports';
import { VoiceWebhook } from './voice-webhook';

/** A customer's answer to a call-permission request, as the provider ingress or the sandbox permission reply reports it. */
export interface PermissionAnswer {
  readonly userId: number;
  readonly senderId: number;
  readonly customerPhone: string;
  /** The contact's conversation UUID, for the event; null when none exists. */
  readonly conversationUuid: string | null;
  readonly response: 'accept' | 'reject' | 'revoke';
  /** Only for `accept`: a grant without expiry. */
  readonly permanent: boolean;
  readonly requestId?: string | null;
}

/**
 * Applies a customer's answer with the permission held, and raises
 * `call_permission_granted` on a grant in the same transaction. A decline with nothing pending or
 * granted, or a revoke of a permission not granted, changes nothing.
 */
export class AnswerCallPermission {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly permissions: CallPermissionRepository,
    private readonly voiceWebhook: VoiceWebhook,
    private readonly clock: Clock,
  ) {}

  answer(a: PermissionAnswer): Promise<Result<CallPermission, CallPermissionAnswerRefusal>> {
    return this.uow.transaction(() =>
      this.permissions.update(a.senderId, a.customerPhone, async (current) => {
        const now = this.clock.now();
        const transition = transitionFor(a, current, now);
        if (!transition.ok) return transition;
        for (const event of transition.value.events) await this.raiseGranted(a, event);
        return ok({ next: transition.value.next, answer: transition.value.next });
      }),
    );
  }

  private raiseGranted(a: PermissionAnswer, granted: CallPermissionGranted): Promise<void> {
    return this.voiceWebhook.raise(
      a.userId,
      {
        type: 'call_permission_granted',
        payload: {
          event: 'call_permission_granted',
          sender_id: granted.senderId,
          customer_phone: granted.customerPhone,
          conversation_id: a.conversationUuid,
          permission: {
            status: 'granted',
            is_permanent: granted.isPermanent,
            expires_at: granted.expiresAt?.toISOString() ?? null,
            responded_at: granted.respondedAt.toISOString(),
          },
          timestamp: granted.respondedAt.toISOString(),
        },
        subject: a.conversationUuid === null ? null : { type: 'conversation', id: a.conversationUuid },
      },
      a.requestId ?? null,
    );
  }
}

function transitionFor(
  a: PermissionAnswer,
  current: CallPermission,
  now: Date,
): Result<CallPermissionTransition, CallPermissionAnswerRefusal> {
  switch (a.response) {
    case 'accept':
      return ok(acceptCallPermission(current, a.permanent, now));
    case 'reject':
      return declineCallPermission(current, now);
    case 'revoke':
      return revokeCallPermission(current, now);
  }
}
