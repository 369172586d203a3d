import { Conversation, inactivityDeadline, inactivityTimeoutMinutes } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { JobScheduler } from '../events';

/** Job kind: ends a conversation that saw no message for its assistant's inactivity timeout. */
export const CONVERSATION_INACTIVITY_JOB = 'conversation.inactivity';
export const inactivityJobKey = (conversationId: number): string => `conversation-inactivity:${conversationId}`;

/**
 * Keeps one durable job per open conversation at its inactivity deadline: every message moves it
 * (same key), so the scheduler's workers claim each end once, whichever instance runs them.
 */
export class InactivitySchedule {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly assistants: AssistantRepository,
  ) {}

  async timeoutMinutes(conversation: Pick<Conversation, 'userId' | 'assistantId'>): Promise<number> {
    const assistant =
      conversation.assistantId === null
        ? null
        : await this.assistants.findOwned(conversation.userId, conversation.assistantId);
    return inactivityTimeoutMinutes(assistant);
  }

  /**
   * Inside the transaction that recorded a message. Only a conversation that was just created or
   * reopened needs its job written: otherwise the job is already there, and when it finds the
   * conversation not due yet it moves itself to the new deadline — one job write per quiet spell
   * instead of one per message.
   */
  async afterMessage(
    conversation: Conversation,
    change: { readonly events: readonly { readonly type: string }[] },
    wasNew: boolean,
  ): Promise<void> {
    if (!wasNew && !change.events.some((e) => e.type === 'conversation_reopened')) return;
    await this.schedule(conversation, await this.timeoutMinutes(conversation));
  }

  async schedule(conversation: Conversation, timeoutMinutes: number): Promise<void> {
    const deadline = inactivityDeadline(conversation, timeoutMinutes);
    if (deadline === null) return;
    await this.scheduler.schedule({
      kind: CONVERSATION_INACTIVITY_JOB,
      key: inactivityJobKey(conversation.id),
      payload: { conversation_id: conversation.id },
      runAt: deadline,
    });
  }
}
