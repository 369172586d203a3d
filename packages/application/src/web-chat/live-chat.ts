import { Conversation, ConversationMessage, roleOfSource, WebChatType } from '@voiceplane/domain';
import { WorkLogger } from '../events';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { BusMessage, MessageBus } from '../ports';

/** Outbox topic of every message stored in a web chat: live views (the widget's stream) follow it. */
export const WEB_CHAT_MESSAGE_TOPIC = 'conversation.message';
/**
 * Bus topic of a reply as the model writes it. Published straight to the bus, not through the
 * outbox: a piece of a draft is worth nothing once the reply is stored, so it is not kept for
 * anyone; the stored message (`conversation.message`) is what counts.
 */
export const WEB_CHAT_DRAFT_TOPIC = 'conversation.reply_draft';

/** A message as a live view of a web chat shows it. */
export interface LiveMessage {
  readonly id: number;
  readonly role: 'user' | 'assistant' | 'system';
  readonly source: string;
  readonly content: string;
  readonly created_at: string;
}

/** What a live view of a web chat receives for each new message. */
export interface LiveChatMessage {
  readonly user_id: number;
  readonly conversation_id: string;
  readonly type: WebChatType | 'chatapp';
  readonly message: LiveMessage;
}

/**
 * A piece of the reply being written. `draft` names one model answer (the user message it answers
 * and the round): a round that ends in function calls is followed by a new draft, which replaces
 * what the earlier one showed. `discarded`: the draft will never be stored (a human took over, the
 * model failed), so a view stops showing it.
 */
export interface LiveChatDraft {
  readonly user_id: number;
  readonly conversation_id: string;
  readonly draft: string;
  readonly delta: string;
  readonly discarded?: boolean;
}

export function liveMessageOf(message: ConversationMessage): LiveMessage {
  return {
    id: message.id,
    role: roleOfSource(message.source),
    source: message.source,
    content: message.body ?? '',
    created_at: message.createdAt.toISOString(),
  };
}

export function liveChatMessage(conversation: Conversation, message: ConversationMessage): LiveChatMessage {
  return {
    user_id: conversation.userId,
    conversation_id: conversation.uuid,
    type: conversation.type,
    message: liveMessageOf(message),
  };
}

/** One reply's drafts on their way to the bus. */
export interface DraftWriter {
  /** A piece of the text of round `round`'s answer. */
  write(delta: string, round: number): void;
  /** Every piece published (or given up); `discarded` first tells the views the reply will not come. */
  finish(discarded: boolean): Promise<void>;
}

const NO_DRAFTS: DraftWriter = { write: () => undefined, finish: async () => undefined };

/**
 * Publishes a reply's pieces as the model writes them. One publish at a time, in order: pieces that
 * arrive while one is on its way go together in the next (a slow bus gets fewer, bigger pieces
 * rather than a growing queue). A bus that refuses is logged once and the rest of the drafts are
 * dropped: the stored reply still reaches every view.
 */
export class ReplyDrafts {
  constructor(
    private readonly bus: MessageBus,
    private readonly ids: Ids,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  /** The drafts of the reply to user message `replyTo`; nothing is published for a chat no live view follows. */
  open(conversation: Conversation, replyTo: number): DraftWriter {
    if (conversation.type !== 'widget') return NO_DRAFTS;
    const base = { user_id: conversation.userId, conversation_id: conversation.uuid };
    const queued: LiveChatDraft[] = [];
    let sending: Promise<void> | null = null;
    let failed = false;
    let lastDraft: string | null = null;
    const pump = async (): Promise<void> => {
      while (queued.length > 0 && !failed) {
        const batch = coalesce(queued.splice(0));
        try {
          await this.bus.publish(batch.map((payload) => this.message(payload)));
        } catch (e) {
          failed = true;
          this.log.warn(
            { conversation_id: conversation.id, error: e instanceof Error ? e.message : String(e) },
            'the reply draft could not be published; the widget shows the reply once stored',
          );
        }
      }
      sending = null;
    };
    const push = (payload: LiveChatDraft) => {
      if (failed) return;
      queued.push(payload);
      sending ??= pump();
    };
    return {
      write: (delta, round) => {
        if (delta === '') return;
        lastDraft = `${replyTo}-${round}`;
        push({ ...base, draft: lastDraft, delta });
      },
      finish: async (discarded) => {
        if (discarded && lastDraft !== null) push({ ...base, draft: lastDraft, delta: '', discarded: true });
        while (sending !== null) await sending;
      },
    };
  }

  private message(payload: LiveChatDraft): BusMessage {
    return {
      id: this.ids.uuid(),
      topic: WEB_CHAT_DRAFT_TOPIC,
      payload,
      occurredAt: this.clock.now().toISOString(),
    };
  }
}

/** Adjacent pieces of one draft become one. */
function coalesce(pieces: readonly LiveChatDraft[]): LiveChatDraft[] {
  const out: LiveChatDraft[] = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last !== undefined && last.draft === piece.draft && !last.discarded && !piece.discarded)
      out[out.length - 1] = { ...last, delta: last.delta + piece.delta };
    else out.push(piece);
  }
  return out;
}
