import {
  CallerLine,
  ChatappCallRefusal,
  decideChatappCall,
  E164_PATTERN,
  err,
  ok,
  Result,
  Sender,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { DoNotCallList } from '../ports';
import { JobScheduler } from '../events';
import { CallConfigurations } from '../calls';
import { CALL_DISPATCH_WATCHDOG_JOB, DISPATCH_WATCHDOG_MS } from '../calls';
import { CallRepository } from '../calls';
import { VoiceSenderLookup } from './ports';
import { VoiceFacts } from './voice-facts';

/** Outbox topic that hands a queued chat-app call to a worker. Payload: `{call_id, user_id}`. */
export const CHATAPP_CALL_QUEUED_TOPIC = 'call.chatapp_queued';

export interface ChatappCallRequest {
  readonly userId: number;
  readonly senderId: number;
  readonly recipientPhone: string;
  /** Normalised (≤ 20 keys, strings ≤ 500); merged over the assistant's variables. */
  readonly variables: Readonly<Record<string, string>>;
}

export type PlaceChatappCallRefusal =
  | { readonly code: 'sender_not_found' }
  | { readonly code: 'invalid_phone' }
  /** The number is on the account's do-not-call list. */
  | { readonly code: 'do_not_call' }
  | ChatappCallRefusal;

/** The line a chat-app call leaves from: the sender's number on the chat app, no SIP trunk. */
export const senderLine = (sender: Sender): CallerLine => ({
  phoneNumberId: null,
  phoneNumber: sender.phoneNumber,
  sip: null,
});

/** Where the sender is read and the call record written, and the transaction around both. */
export interface PlaceChatappCallStores {
  readonly uow: UnitOfWork;
  readonly senders: VoiceSenderLookup;
  readonly calls: CallRepository;
  readonly doNotCall: DoNotCallList;
}

/** How a queued call reaches a worker: the outbox message and the dispatch watchdog job. */
export interface PlaceChatappCallDispatch {
  readonly outbox: Outbox;
  readonly scheduler: JobScheduler;
}

/**
 * `POST /api/user/chatapp/voice/call`: the checks in the route's order, then a
 * `queued` chat-app call record that counts against the limits at once. The sender's open calls
 * and the contact's attempts are read with the sender's line held, so concurrent calls cannot pass
 * the limits together across instances. A worker places the call after the commit.
 */
export class PlaceChatappCall {
  private readonly uow: UnitOfWork;
  private readonly senders: VoiceSenderLookup;
  private readonly calls: CallRepository;
  private readonly doNotCall: DoNotCallList;
  private readonly outbox: Outbox;
  private readonly scheduler: JobScheduler;

  constructor(
    stores: PlaceChatappCallStores,
    private readonly facts: VoiceFacts,
    private readonly configurations: CallConfigurations,
    dispatch: PlaceChatappCallDispatch,
    private readonly clock: Clock,
  ) {
    ({ uow: this.uow, senders: this.senders, calls: this.calls, doNotCall: this.doNotCall } = stores);
    ({ outbox: this.outbox, scheduler: this.scheduler } = dispatch);
  }

  async execute(request: ChatappCallRequest): Promise<Result<{ readonly callId: number }, PlaceChatappCallRefusal>> {
    const sender = await this.senders.findOwned(request.userId, request.senderId);
    if (sender === null) return err({ code: 'sender_not_found' });
    if (!E164_PATTERN.test(request.recipientPhone)) return err({ code: 'invalid_phone' });
    if ((await this.doNotCall.listed(sender.userId, [request.recipientPhone])).size > 0)
      return err({ code: 'do_not_call' });
    return this.uow.transaction(
      async () => {
        const now = this.clock.now();
        const facts = await this.facts.forCall(sender, request.recipientPhone, now, true);
        const decision = decideChatappCall(facts, now);
        if (!decision.ok) return decision;
        // Decided `available` above, so the assistant exists.
        const callAssistant = facts.callAssistant!;
        const line = senderLine(sender);
        const runtimeConfig = await this.configurations.forStart({
          direction: 'outbound',
          channel: 'chatapp',
          customerPhone: request.recipientPhone,
          line,
          assistant: callAssistant,
          variables: request.variables,
        });
        const { call } = await this.calls.create({
          userId: sender.userId,
          assistantId: callAssistant.id,
          direction: 'outbound',
          channel: 'chatapp',
          status: 'queued',
          customerPhone: request.recipientPhone,
          line,
          variables: request.variables,
          runtimeConfig,
          senderId: sender.id,
          conversationId: facts.conversation?.uuid ?? null,
          now,
        });
        await this.outbox.add([
          { topic: CHATAPP_CALL_QUEUED_TOPIC, payload: { call_id: call.id, user_id: sender.userId } },
        ]);
        await this.scheduler.schedule({
          kind: CALL_DISPATCH_WATCHDOG_JOB,
          key: `call-dispatch:${call.id}`,
          payload: { call_id: call.id },
          runAt: new Date(now.getTime() + DISPATCH_WATCHDOG_MS),
        });
        return ok({ callId: call.id });
      },
      { concludes: true },
    );
  }
}
