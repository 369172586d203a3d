import { Conversation, conversationEndedPayload, endOnInactivity, inactivityTimeoutMinutes } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants/ports';
import { Clock } from '../ports/clock';
import { Outbox } from '../ports/outbox';
import { UnitOfWork } from '../ports/unit-of-work';
import { JobHandler } from '../events/ports';
import { WebhookDeliveries } from '../webhooks/webhook-deliveries';
import { SenderRepository } from '../chatapp/ports';
import { CONVERSATION_INACTIVITY_JOB, InactivitySchedule } from './inactivity-schedule';
import { ConversationRepository } from './ports';

/** Outbox topic of every end, for automations bound to the assistant (`conversation.ended` trigger, A.13). */
export const CONVERSATION_ENDED_TOPIC = 'conversation.ended';
/** Transcript messages the `conversation_ended` payload carries at most. */
const TRANSCRIPT_LIMIT = 500;

/**
 * End on inactivity (CONTRACT §11.4): the scheduler's job at a conversation's deadline, or the
 * sandbox's S13 (`force`). Under the conversation's lock the domain decides; the `conversation_ended`
 * delivery (first end only unless `conversation_ended_retrigger`) commits with the end. A message
 * that moved the deadline meanwhile leaves the conversation open with its job moved.
 */
export class EndInactiveConversation {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly conversations: ConversationRepository,
    private readonly senders: SenderRepository,
    private readonly assistants: AssistantRepository,
    private readonly schedule: InactivitySchedule,
    private readonly deliveries: WebhookDeliveries,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  /** The conversation after the attempt; null when it does not exist. */
  end(conversationId: number, options: { force?: boolean } = {}): Promise<Conversation | null> {
    return this.uow.transaction(async () => {
      const conversation = await this.conversations.lockById(conversationId);
      if (conversation === null) return null;
      const assistant = conversation.assistantId === null ? null : await this.assistants.findOwned(conversation.userId, conversation.assistantId, { lock: true });
      const timeout = options.force ? 0 : inactivityTimeoutMinutes(assistant);
      const now = this.clock.now();
      const ended = endOnInactivity(conversation, options.force ? new Date(Math.max(now.getTime(), (conversation.lastMessageAt ?? now).getTime())) : now, timeout,
        assistant === null ? null : { url: assistant.conversationEndedWebhookUrl, retrigger: assistant.conversationEndedRetrigger });
      if (!ended.ok) {
        if (ended.error.code === 'not_due') await this.schedule.schedule(conversation, timeout);
        return conversation;
      }
      const next = ended.value.next;
      await this.conversations.save(next);
      const sender = await this.senders.findOwned(next.userId, next.senderId);
      const payload = conversationEndedPayload({
        conversation: next, messages: await this.conversations.recentMessages(next.id, TRANSCRIPT_LIMIT),
        sender: { phoneNumber: sender?.phoneNumber ?? '', displayName: sender?.displayName ?? '' },
        extractedVariables: {}, inputVariables: {},
      });
      if (ended.value.events[0].notifyWebhook && assistant !== null && assistant.conversationEndedWebhookUrl !== null) {
        await this.deliveries.enqueue({
          userId: next.userId, eventType: 'conversation_ended', targetUrl: assistant.conversationEndedWebhookUrl, payload,
          source: { type: 'assistant', id: assistant.id }, subject: { type: 'conversation', id: next.id },
        });
      }
      if (assistant !== null) {
        await this.outbox.add([{ topic: CONVERSATION_ENDED_TOPIC, payload: { event: 'conversation.ended', user_id: next.userId, assistant_id: assistant.id, conversation: payload } }]);
      }
      return next;
    });
  }
}

export function conversationInactivityJob(ending: EndInactiveConversation): JobHandler {
  return {
    kind: CONVERSATION_INACTIVITY_JOB,
    handle: async (job) => {
      await ending.end((job.payload as { conversation_id: number }).conversation_id);
    },
  };
}
