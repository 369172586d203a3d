import {
  Assistant,
  Conversation,
  conversationEndedPayload,
  ConversationMessage,
  endOnInactivity,
  evaluatedConversationVariables,
  err,
  inactivityTimeoutMinutes,
  ok,
  PostCallEvaluation,
  Result,
  roleOfSource,
  transcriptText,
} from '@voiceplane/domain';
import { AssistantRepository, CatalogRepository } from '../assistants';
import { Clock } from '../ports';
import { Outbox } from '../ports';
import { UnitOfWork } from '../ports';
import { JobHandler, WorkLogger } from '../events';
import { WebhookDeliveries } from '../webhooks';
import { ReplyGenerator } from '../conversation-policy';
import { assistantModelName } from './assistant-model';
import { CONVERSATION_INACTIVITY_JOB, InactivitySchedule } from './inactivity-schedule';
import { ConversationRef, ConversationRepository, ConversationSenders } from './ports';

/** Outbox topic of every end, for automations bound to the assistant (`conversation.ended` trigger). */
export const CONVERSATION_ENDED_TOPIC = 'conversation.ended';
/** Transcript messages the `conversation_ended` payload carries at most. */
const TRANSCRIPT_LIMIT = 500;

/** What the evaluator made of a conversation that had `messageCount` messages when it read it. */
interface Evaluated {
  readonly messageCount: number;
  /** The transcript it read: still the conversation's own while `messageCount` is. */
  readonly messages: readonly ConversationMessage[];
  readonly produced: Readonly<Record<string, unknown>> | null;
}

/** What an end reads and writes, under the conversation's lock. */
export interface EndingRecords {
  readonly conversations: ConversationRepository;
  readonly senders: ConversationSenders;
  readonly assistants: AssistantRepository;
}

/** Where an end (or an end not yet due) is told: the next deadline's job, the webhook, the automations' outbox. */
export interface EndingAnnouncements {
  readonly schedule: InactivitySchedule;
  readonly deliveries: WebhookDeliveries;
  readonly outbox: Outbox;
}

type Attempt =
  | { readonly kind: 'done'; readonly conversation: Conversation | null }
  | { readonly kind: 'evaluate'; readonly conversation: Conversation; readonly assistant: Assistant };

/**
 * End on inactivity: the scheduler's job at a conversation's deadline, or the
 * sandbox's `end-now` (`force`). Under the conversation's lock the domain decides; the `conversation_ended`
 * delivery (first end only unless `conversation_ended_retrigger`) commits with the end. A message
 * that moved the deadline meanwhile leaves the conversation open with its job moved. When the
 * assistant evaluates (`post_call_evaluation`), the language model reads the transcript outside
 * any transaction, between a first look that finds the end due and the end itself; a message that
 * arrived in between keeps the conversation open, or (forced) ends it with nothing claimed.
 */
export class EndInactiveConversation {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly records: EndingRecords,
    private readonly announce: EndingAnnouncements,
    private readonly evaluator: {
      readonly generator: ReplyGenerator;
      readonly catalog: CatalogRepository;
      readonly log: WorkLogger;
    },
    private readonly clock: Clock,
  ) {}

  /** The conversation after the attempt; null when it does not exist. */
  async end(conversationId: number, options: { force?: boolean } = {}): Promise<Conversation | null> {
    const first = await this.uow.transaction(() => this.attempt(conversationId, options, undefined));
    if (first.kind === 'done') return first.conversation;
    const evaluated = await this.evaluate(first.conversation, first.assistant);
    const second = await this.uow.transaction(() => this.attempt(conversationId, options, evaluated));
    return second.conversation;
  }

  /**
   * The sandbox's `end-now`: the caller's conversation ended now, whatever its deadline. Another
   * account's conversation is not found; one that could not end is answered as it stands.
   */
  async endOwnedNow(userId: number, ref: ConversationRef): Promise<Result<Conversation, 'conversation_not_found'>> {
    const owned = await this.records.conversations.findOwned(userId, ref);
    if (owned === null) return err('conversation_not_found');
    return ok((await this.end(owned.id, { force: true })) ?? owned);
  }

  /** Without `evaluated`, an end that needs an evaluation is left for after it (nothing written). */
  private async attempt(
    conversationId: number,
    options: { force?: boolean },
    evaluated: Evaluated | undefined,
  ): Promise<Attempt> {
    const conversation = await this.records.conversations.lockById(conversationId);
    if (conversation === null) return { kind: 'done', conversation: null };
    const assistant =
      conversation.assistantId === null
        ? null
        : await this.records.assistants.findOwned(conversation.userId, conversation.assistantId, { lock: true });
    const timeout = options.force ? 0 : inactivityTimeoutMinutes(assistant);
    const now = this.clock.now();
    const ended = endOnInactivity(
      conversation,
      options.force ? new Date(Math.max(now.getTime(), (conversation.lastMessageAt ?? now).getTime())) : now,
      timeout,
      assistant === null
        ? null
        : { url: assistant.conversationEndedWebhookUrl, retrigger: assistant.conversationEndedRetrigger },
    );
    if (!ended.ok) {
      if (ended.error.code === 'not_due') await this.announce.schedule.schedule(conversation, timeout);
      return { kind: 'done', conversation };
    }
    if (assistant?.postCallEvaluation && evaluated === undefined) return { kind: 'evaluate', conversation, assistant };
    const next = ended.value.next;
    await this.records.conversations.save(next);
    const sender = next.senderId === null ? null : await this.records.senders.findOwned(next.userId, next.senderId);
    const current = evaluated !== undefined && evaluated.messageCount === conversation.messageCount ? evaluated : null;
    const payload = conversationEndedPayload({
      conversation: next,
      messages: current?.messages ?? (await this.records.conversations.recentMessages(next.id, TRANSCRIPT_LIMIT)),
      sender: { phoneNumber: sender?.phoneNumber ?? '', displayName: sender?.displayName ?? '' },
      extractedVariables:
        assistant === null ? {} : evaluatedConversationVariables(evaluationOf(assistant), current?.produced ?? null),
      inputVariables: {},
    });
    if (ended.value.events[0].notifyWebhook && assistant !== null && assistant.conversationEndedWebhookUrl !== null) {
      await this.announce.deliveries.enqueue({
        userId: next.userId,
        eventType: 'conversation_ended',
        targetUrl: assistant.conversationEndedWebhookUrl,
        payload,
        source: { type: 'assistant', id: assistant.id },
        subject: { type: 'conversation', id: next.id },
      });
    }
    if (assistant !== null) {
      await this.announce.outbox.add([
        {
          topic: CONVERSATION_ENDED_TOPIC,
          payload: {
            event: 'conversation.ended',
            user_id: next.userId,
            assistant_id: assistant.id,
            conversation: payload,
          },
        },
      ]);
    }
    return { kind: 'done', conversation: next };
  }

  /** The assistant's `post_call_schema` read over the transcript; null (logged) when the evaluator fails. */
  private async evaluate(conversation: Conversation, assistant: Assistant): Promise<Evaluated> {
    const { generator, catalog, log } = this.evaluator;
    const messages = await this.records.conversations.recentMessages(conversation.id, TRANSCRIPT_LIMIT);
    try {
      const produced = await generator.evaluateConversation({
        model: await assistantModelName(catalog, assistant),
        schema: assistant.postCallSchema,
        transcript: messages.map((m) => ({ role: roleOfSource(m.source), content: transcriptText(m) })),
      });
      return { messageCount: conversation.messageCount, messages, produced };
    } catch (e) {
      log.warn(
        { conversation_id: conversation.id, error: e instanceof Error ? e.message : String(e) },
        'conversation evaluation failed; the end claims nothing',
      );
      return { messageCount: conversation.messageCount, messages, produced: null };
    }
  }
}

const evaluationOf = (assistant: Assistant): PostCallEvaluation => ({
  enabled: assistant.postCallEvaluation,
  fieldNames: assistant.postCallSchema.map((f) => f.name),
});

export function conversationInactivityJob(ending: EndInactiveConversation): JobHandler {
  return {
    kind: CONVERSATION_INACTIVITY_JOB,
    handle: async (job) => {
      await ending.end((job.payload as { conversation_id: number }).conversation_id);
    },
  };
}
