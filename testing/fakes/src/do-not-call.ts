import { DoNotCallEntry, DoNotCallList, NewDoNotCallEntry } from '@voiceplane/application';
import { copy } from './copy';

/** The do-not-call list in memory, with the PostgreSQL semantics of the contract. */
export class InMemoryDoNotCallList implements DoNotCallList {
  private readonly rows = new Map<number, DoNotCallEntry>();
  private lastId = 0;

  async add(userId: number, entries: readonly NewDoNotCallEntry[], now: Date): Promise<number> {
    let added = 0;
    for (const e of entries) {
      if ((await this.listed(userId, [e.phoneNumber])).size > 0) continue;
      const id = ++this.lastId;
      this.rows.set(id, { id, userId, phoneNumber: e.phoneNumber, reason: e.reason, createdAt: new Date(now) });
      added++;
    }
    return added;
  }

  async count(userId: number): Promise<number> {
    return [...this.rows.values()].filter((r) => r.userId === userId).length;
  }

  async list(
    userId: number,
    filter: { readonly phoneNumber?: string },
    before: number | null,
    limit: number,
  ): Promise<DoNotCallEntry[]> {
    return [...this.rows.values()]
      .filter(
        (r) =>
          r.userId === userId &&
          (filter.phoneNumber === undefined || r.phoneNumber === filter.phoneNumber) &&
          (before === null || r.id < before),
      )
      .sort((a, b) => b.id - a.id)
      .slice(0, limit)
      .map((r) => copy(r));
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const row = this.rows.get(id);
    if (!row || row.userId !== userId) return false;
    return this.rows.delete(id);
  }

  async listed(userId: number, phoneNumbers: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(phoneNumbers);
    return new Set(
      [...this.rows.values()].filter((r) => r.userId === userId && wanted.has(r.phoneNumber)).map((r) => r.phoneNumber),
    );
  }
}
