import {
  NewSendReservation,
  ReservationOutcome,
  SendReservation,
  SendReservationRepository,
} from '@voiceplane/application';

/** Chat-app send reservations in memory (see the send reservations contract). */
export class InMemorySendReservationRepository implements SendReservationRepository {
  private readonly rows = new Map<number, SendReservation & { outcome: ReservationOutcome | null }>();
  private lastId = 0;

  async held(userId: number): Promise<{ amount: number; allowance: number }> {
    const open = [...this.rows.values()].filter((r) => r.userId === userId && r.outcome === null);
    return {
      amount: open.reduce((sum, r) => sum + r.amount, 0),
      allowance: open.filter((r) => r.fromAllowance).length,
    };
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
