import { BusMessage } from '../ports';
import {
  LiveChatDraft,
  LiveChatMessage,
  LiveMessage,
  liveMessageOf,
  WEB_CHAT_DRAFT_TOPIC,
  WEB_CHAT_MESSAGE_TOPIC,
} from './live-chat';
import { WebChatRepository } from './ports';

/** What a widget's stream shows: stored messages (resumable by id), and drafts of the reply being written. */
export type LiveChatEvent =
  | { readonly kind: 'message'; readonly message: LiveMessage }
  | { readonly kind: 'draft'; readonly draft: string; readonly delta: string }
  | { readonly kind: 'discarded'; readonly draft: string };

/** One open stream, as the transport holds it. */
export interface ChatStreamReader {
  deliver(event: LiveChatEvent): void;
  /** The stream is let go (a newer one of the chat replaced it, or the instance drains): the client reconnects. */
  end(): void;
}

/** Messages a reconnecting stream reads from the database at a time. */
const BACKLOG_PAGE = 100;

interface OpenReader {
  readonly reader: ChatStreamReader;
  /** The newest message this reader has: later copies (the bus delivers at least once) are skipped. */
  lastId: number;
  /** Live events that came while the backlog was read, passed on after it. */
  held: LiveChatEvent[] | null;
}

/**
 * The widget streams of this api instance, fed by the bus: every instance hears every web-chat
 * message and draft (a transient subscription of its own) and hands it to the streams it holds of
 * that chat, so a message stored through any instance reaches a visitor connected to another. A
 * stream opened with a `Last-Event-ID` first gets what was stored after it, from the database.
 */
export class WidgetStreams {
  private readonly readers = new Map<string, OpenReader[]>();

  constructor(
    private readonly backlog: Pick<WebChatRepository, 'messagesAfter'>,
    private readonly limits: { readonly perChat: number; readonly heartbeatMs: number },
  ) {}

  get heartbeatMs(): number {
    return this.limits.heartbeatMs;
  }

  /**
   * Opens a stream of the chat after message `afterId`: the reader is attached first, so nothing
   * stored while the backlog is read is missed, then gets the backlog, then what came meanwhile.
   * A chat holds `perChat` streams on an instance; a newer one ends the oldest (a reloaded tab).
   */
  async open(
    conversation: { readonly id: number; readonly uuid: string },
    afterId: number,
    reader: ChatStreamReader,
  ): Promise<{ close(): void }> {
    const open: OpenReader = { reader, lastId: afterId, held: [] };
    const list = [...(this.readers.get(conversation.uuid) ?? []), open];
    for (const evicted of list.splice(0, Math.max(0, list.length - this.limits.perChat))) evicted.reader.end();
    this.readers.set(conversation.uuid, list);
    const close = () => this.detach(conversation.uuid, open);
    try {
      for (;;) {
        const page = await this.backlog.messagesAfter(conversation.id, open.lastId, BACKLOG_PAGE);
        for (const m of page) this.pass(open, { kind: 'message', message: liveMessageOf(m) });
        if (page.length < BACKLOG_PAGE) break;
      }
    } catch (e) {
      close();
      throw e;
    }
    const held = open.held ?? [];
    open.held = null;
    for (const event of held) this.pass(open, event);
    return { close };
  }

  /** The bus handler of both topics. */
  readonly receive = async (message: BusMessage): Promise<void> => {
    const event = liveEventOf(message);
    if (event === null) return;
    for (const open of this.readers.get(event.conversationId) ?? []) {
      if (open.held !== null) open.held.push(event.event);
      else this.pass(open, event.event);
    }
  };

  openStreams(conversationUuid: string): number {
    return this.readers.get(conversationUuid)?.length ?? 0;
  }

  /** Ends every stream (the instance drains). */
  endAll(): void {
    for (const [uuid, list] of this.readers) {
      this.readers.delete(uuid);
      for (const open of list) open.reader.end();
    }
  }

  private pass(open: OpenReader, event: LiveChatEvent): void {
    if (event.kind === 'message') {
      if (event.message.id <= open.lastId) return;
      open.lastId = event.message.id;
      // A system note (an ended chat's marker) is for the owner's pages, not the visitor.
      if (event.message.role === 'system') return;
    }
    open.reader.deliver(event);
  }

  private detach(uuid: string, open: OpenReader): void {
    const list = this.readers.get(uuid);
    if (!list) return;
    const rest = list.filter((o) => o !== open);
    if (rest.length === 0) this.readers.delete(uuid);
    else this.readers.set(uuid, rest);
  }
}

function liveEventOf(message: BusMessage): { conversationId: string; event: LiveChatEvent } | null {
  if (message.topic === WEB_CHAT_MESSAGE_TOPIC) {
    const payload = message.payload as LiveChatMessage | null;
    if (typeof payload?.conversation_id !== 'string' || typeof payload.message?.id !== 'number') return null;
    return { conversationId: payload.conversation_id, event: { kind: 'message', message: payload.message } };
  }
  if (message.topic === WEB_CHAT_DRAFT_TOPIC) {
    const payload = message.payload as LiveChatDraft | null;
    if (typeof payload?.conversation_id !== 'string' || typeof payload.draft !== 'string') return null;
    return {
      conversationId: payload.conversation_id,
      event: payload.discarded
        ? { kind: 'discarded', draft: payload.draft }
        : { kind: 'draft', draft: payload.draft, delta: String(payload.delta ?? '') },
    };
  }
  return null;
}
