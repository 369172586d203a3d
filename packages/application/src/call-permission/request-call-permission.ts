import {
  decidePermissionRequest, E164_PATTERN, err, ok, PermissionRequestRefusal, recordPermissionRequest, Result,
} from '@voiceplane/domain';
import { Clock } from '../ports/clock';
import { UnitOfWork } from '../ports/unit-of-work';
import { CallPermissionChange, CallPermissionRepository, PermissionRequestSender, RequestSendFailed, VoiceSenderLookup } from './ports';
import { VoiceFacts } from './voice-facts';

export interface PermissionRequest {
  readonly userId: number;
  readonly senderId: number;
  readonly recipientPhone: string;
  readonly recipientName: string | null;
  /** Null: the sender's most recently approved `voice_call_request` template. */
  readonly templateId: number | null;
  readonly requestId?: string | null;
}

export type RequestCallPermissionRefusal =
  | { readonly code: 'SENDER_NOT_FOUND' }
  | { readonly code: 'INVALID_PHONE' }
  | PermissionRequestRefusal
  | RequestSendFailed;

/** Why a request to an offline sender's customer fails at the send step (our choice). */
export const OFFLINE_SENDER_REASON = 'the sender is not online';

/**
 * `POST /api/user/chatapp/voice/request`: the checks in the route's order with
 * the contact's permission held, then the request template through the chat app; the permission
 * turns `pending` and the ask counters move only when the template was sent.
 */
export class RequestCallPermission {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: VoiceSenderLookup,
    private readonly permissions: CallPermissionRepository,
    private readonly facts: VoiceFacts,
    private readonly requestSender: PermissionRequestSender,
    private readonly clock: Clock,
  ) {}

  async execute(request: PermissionRequest): Promise<Result<null, RequestCallPermissionRefusal>> {
    const sender = await this.senders.findOwned(request.userId, request.senderId);
    if (sender === null) return err({ code: 'SENDER_NOT_FOUND' });
    if (!E164_PATTERN.test(request.recipientPhone)) return err({ code: 'INVALID_PHONE' });
    return this.uow.transaction(() => this.permissions.update(sender.id, request.recipientPhone, async (current): Promise<Result<CallPermissionChange<null>, RequestCallPermissionRefusal>> => {
      const now = this.clock.now();
      const facts = await this.facts.forRequest(sender, request.recipientPhone, request.templateId, current);
      const decision = decidePermissionRequest(facts, now);
      if (!decision.ok) return decision;
      const asked = recordPermissionRequest(current, now);
      if (!asked.ok) return asked;
      if (sender.status !== 'online') return err({ code: 'SEND_FAILED', reason: OFFLINE_SENDER_REASON });
      const sent = await this.requestSender.send({
        sender, customerPhone: request.recipientPhone, recipientName: request.recipientName, template: facts.template!, requestId: request.requestId ?? null,
      });
      if (!sent.ok) return sent;
      return ok({ next: asked.value.next, answer: null });
    }));
  }
}
