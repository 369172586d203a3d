import {
  CallPermission,
  decidePermissionRequest,
  E164_PATTERN,
  err,
  MessageTemplate,
  ok,
  PermissionRequestRefusal,
  recordPermissionRequest,
  Result,
  withdrawPermissionRequest,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import {
  CallPermissionChange,
  CallPermissionRepository,
  PermissionRequestSender,
  RequestSendFailed,
  VoiceSenderLookup,
} from './ports';
import { CallPermissionView, ReadCallPermission } from './read-call-permission';
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
  | { readonly code: 'sender_not_found' }
  | { readonly code: 'invalid_phone' }
  | PermissionRequestRefusal
  | RequestSendFailed;

/** An ask recorded before its template went out: what to put back should it not go out. */
interface Ask {
  readonly before: CallPermission;
  readonly at: Date;
  readonly template: MessageTemplate;
}

/** Why a request to an offline sender's customer fails at the send step (our choice). */
export const OFFLINE_SENDER_REASON = 'the sender is not online';

/**
 * `POST /api/user/chatapp/voice/request`: the checks in the route's order with
 * the contact's permission held, where the ask is recorded (`pending`, counted); then the request
 * template through the chat app, with nothing held; a template that did not go out withdraws the ask.
 * Answered with the permission as read in the transaction that concludes the request: the one that
 * records the sent template, or the one that withdraws the ask.
 */
export class RequestCallPermission {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: VoiceSenderLookup,
    private readonly permissions: CallPermissionRepository,
    private readonly facts: VoiceFacts,
    private readonly requestSender: PermissionRequestSender,
    private readonly clock: Clock,
    private readonly reads: ReadCallPermission,
  ) {}

  async execute(request: PermissionRequest): Promise<Result<CallPermissionView, RequestCallPermissionRefusal>> {
    const sender = await this.senders.findOwned(request.userId, request.senderId);
    if (sender === null) return err({ code: 'sender_not_found' });
    if (!E164_PATTERN.test(request.recipientPhone)) return err({ code: 'invalid_phone' });
    // The ask is recorded with the permission held and committed before the template goes out, so
    // no lock or transaction waits on the chat app; a concurrent request already counts it.
    const asked = await this.uow.transaction(() =>
      this.permissions.update(
        sender.id,
        request.recipientPhone,
        async (current): Promise<Result<CallPermissionChange<Ask>, RequestCallPermissionRefusal>> => {
          const now = this.clock.now();
          const facts = await this.facts.forRequest(sender, request.recipientPhone, request.templateId, current);
          const decision = decidePermissionRequest(facts, now);
          if (!decision.ok) return decision;
          const recorded = recordPermissionRequest(current, now);
          if (!recorded.ok) return recorded;
          if (sender.status !== 'online') return err({ code: 'send_failed', reason: OFFLINE_SENDER_REASON });
          // Decided `ok` above, so the template exists.
          return ok({ next: recorded.value.next, answer: { before: current, at: now, template: facts.template! } });
        },
      ),
    );
    if (!asked.ok) return asked;
    const { before, at, template } = asked.value;
    const view = () => this.reads.read(request.userId, sender.id, request.recipientPhone);
    let answered: Result<CallPermissionView, RequestCallPermissionRefusal> | null = null;
    const sent = await this.requestSender.send({
      sender,
      customerPhone: request.recipientPhone,
      recipientName: request.recipientName,
      template,
      requestId: request.requestId ?? null,
      outcome: async () => (answered = await view()),
    });
    // The view read where the send committed; read now where no transaction concluded (a fake store).
    if (sent.ok) return answered ?? view();
    // The template never went out: the ask counts for nothing.
    await this.uow.transaction(
      () =>
        this.permissions.update(sender.id, request.recipientPhone, async (current) =>
          ok({ next: withdrawPermissionRequest(current, before, at), answer: null }),
        ),
      { concludes: () => sent },
    );
    return sent;
  }
}
