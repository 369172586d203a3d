import { Conversation } from '@voiceplane/domain';
import {
  ConversationRepository,
  HeldBySends,
  NewSendReservation,
  ReservationOutcome,
  SendReservation,
  SendReservationRepository,
} from '@voiceplane/application';

/** Chat-app send reservations in memory (see the send reservations contract). */
export class InMemorySendReservationRepository implements SendReservationRepository {
  private readonly rows = new Map<number, SendReservation & { outcome: ReservationOutcome | null }>();
  private lastId = 0;

  /** `conversations`: where the one-round-trip forms lock the send's conversation. */
  constructor(private readonly conversations: Pick<ConversationRepository, 'lock'>) {}

  async held(userId: number): Promise<{ amount: number; allowance: number }> {
    const open = [...this.rows.values()].filter((r) => r.userId === userId && r.outcome === null);
    return {
      amount: open.reduce((sum, r) => sum + r.amount, 0),
      allowance: open.filter((r) => r.fromAllowance).length,
    };
  }

  async heldLockingConversation(
    userId: number,
    senderId: number,
    customerPhone: string,
  ): Promise<{ held: HeldBySends; conversation: Conversation | null }> {
    const held = await this.held(userId);
    return { held, conversation: await this.conversations.lock(senderId, customerPhone) };
  }

  async closeLockingConversation(
    id: number,
    outcome: ReservationOutcome,
    _now: Date,
    senderId: number,
    customerPhone: string,
  ): Promise<{ closed: boolean; conversation: Conversation | null }> {
    const conversation = await this.conversations.lock(senderId, customerPhone);
    return { closed: await this.close(id, outcome), conversation };
  }

  async reserve(r: NewSendReservation): Promise<SendReservation> {
    const row = { ...r, now: new Date(r.now), id: ++this.lastId, outcome: null };
    this.rows.set(row.id, row);
    return { ...r, id: row.id };
  }

  async close(id: number, outcome: ReservationOutcome): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.outcome !== null) return false;
    row.outcome = outcome;
    return true;
  }

  async open(before: Date, limit: number): Promise<SendReservation[]> {
    return [...this.rows.values()]
      .filter((r) => r.outcome === null && r.now < before)
      .sort((a, b) => a.now.getTime() - b.now.getTime() || a.id - b.id)
      .slice(0, limit)
      .map(({ outcome: _outcome, ...r }) => ({ ...r, now: new Date(r.now) }));
  }
}
