import {
  applyChatappCallEvent,
  CALL_REPORT_BIND_WINDOW_MS,
  callForReport,
  ChatappCallCandidate,
  ChatappCallEvent,
  ChatappCallReport,
  openChatappCallReport,
} from '@voiceplane/domain';
import type { SenderRepository } from '../chatapp';
import type { ChatappInboundHandler, ChatappInboundItem } from '../chatapp';
import { WorkLogger } from '../events';

/** Which chat-app calls an event of an unbound chat-app call id may be bound to. */
export interface ChatappCallReportKey {
  readonly metaCallId: string;
  readonly senderId: number;
  /** Null: the chat app did not name the customer; no call is a candidate. */
  readonly customerPhone: string | null;
  /** Calls that ended before this are no candidates. */
  readonly endedSince: Date;
}

export interface ChatappCallReportChange<A> {
  /** The report to store (bound to its call on first store); null: nothing changes. */
  readonly next: ChatappCallReport | null;
  readonly answer: A;
}

export interface ChatappCallReportRepository {
  findByCallId(callId: number): Promise<ChatappCallReport | null>;
  /**
   * In one transaction, with the chat-app call id held and, while it is bound to no call, the
   * sender's calls to the customer: hands `decide` the report bound to the id (null: none yet) and
   * the candidates (null report only) — the sender's chat-app calls to the customer that no report
   * is bound to and that had not ended before `endedSince`, newest first — then stores what it
   * decided. A call and a chat-app call id are each bound at most once.
   */
  record<A>(
    key: ChatappCallReportKey,
    decide: (
      current: ChatappCallReport | null,
      candidates: readonly ChatappCallCandidate[],
    ) => ChatappCallReportChange<A>,
  ): Promise<A>;
}

export type ChatappCallEventOutcome = 'recorded' | 'duplicate' | 'unmatched' | 'unknown_sender';

export type ChatappCallEventItem = Extract<ChatappInboundItem, { kind: 'call_event' }>;

/**
 * The chat app's `calls` webhooks for chat-app calls: matched to the chat-app call they belong to
 * (by the chat app's call id once bound; the first event binds it to the sender's open or just-ended
 * call to the customer) and recorded once. They never move the call's status, which the voice
 * runtime's SIP participant reports; an event no call matches is acknowledged and logged.
 */
export class RecordChatappCallEvent {
  constructor(
    private readonly senders: Pick<SenderRepository, 'findByProviderRef'>,
    private readonly reports: ChatappCallReportRepository,
    private readonly log: WorkLogger,
  ) {}

  async record(item: ChatappCallEventItem): Promise<ChatappCallEventOutcome> {
    const sender = await this.senders.findByProviderRef(item.providerSenderRef);
    if (sender === null) return this.logged(item, 'unknown_sender');
    const event: ChatappCallEvent = {
      metaCallId: item.providerCallId,
      event: item.event,
      at: item.at,
      status: item.status ?? null,
      duration: item.duration ?? null,
    };
    const key: ChatappCallReportKey = {
      metaCallId: item.providerCallId,
      senderId: sender.id,
      customerPhone: item.customerPhone ?? null,
      endedSince: new Date(item.at.getTime() - CALL_REPORT_BIND_WINDOW_MS),
    };
    const outcome = await this.reports.record(
      key,
      (current, candidates): ChatappCallReportChange<ChatappCallEventOutcome> => {
        if (current !== null) {
          const applied = applyChatappCallEvent(current, event);
          return applied.changed ? { next: applied.next, answer: 'recorded' } : { next: null, answer: 'duplicate' };
        }
        const callId = callForReport(candidates, item.at);
        return callId === null
          ? { next: null, answer: 'unmatched' }
          : { next: openChatappCallReport(callId, event), answer: 'recorded' };
      },
    );
    return this.logged(item, outcome);
  }

  private logged(item: ChatappCallEventItem, outcome: ChatappCallEventOutcome): ChatappCallEventOutcome {
    this.log.info(
      { providerItemId: item.providerItemId, providerCallId: item.providerCallId, event: item.event, outcome },
      'chat-app call event',
    );
    return outcome;
  }
}

/** The inbound handler with the chat app's call events recorded against chat-app calls; every other item goes on to `inner`. */
export class ChatappCallEventsInbound implements ChatappInboundHandler {
  constructor(
    private readonly inner: ChatappInboundHandler,
    private readonly events: RecordChatappCallEvent,
  ) {}

  async handle(item: ChatappInboundItem): Promise<void> {
    if (item.kind === 'call_event') await this.events.record(item);
    else await this.inner.handle(item);
  }
}
