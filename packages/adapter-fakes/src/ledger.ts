import { LedgerEntryType } from '@voiceplane/domain';
import { Clock, LedgerEntry, LedgerRepository, NewLedgerEntry, Page, PageRequest } from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';

/** The append-only ledger in memory; `createdAt` comes from `clock`, as the database's `now()`. */
export class InMemoryLedgerRepository implements LedgerRepository {
  private readonly entries: LedgerEntry[] = [];

  constructor(private readonly clock: Clock) {}

  async append(entry: NewLedgerEntry): Promise<LedgerEntry> {
    const stored: LedgerEntry = {
      ...copy(entry), id: this.entries.length + 1, description: entry.description.slice(0, 255), createdAt: this.clock.now(),
    };
    this.entries.push(stored);
    return copy(stored);
  }

  async list(userId: number, page: PageRequest, type?: LedgerEntryType): Promise<Page<LedgerEntry>> {
    const matching = this.entries.filter((e) => e.userId === userId && (type === undefined || e.type === type)).reverse();
    return pageOf(matching.map((e) => copy(e)), page);
  }
}
