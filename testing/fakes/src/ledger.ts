import { err, LedgerEntry, LedgerEntryType, ok, Result } from '@voiceplane/domain';
import {
  Clock,
  LedgerPosting,
  LedgerRepository,
  Page,
  PageRequest,
  PostingOptions,
  UserNotFound,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';
import { InMemoryUserRepository } from './users';

/** The append-only ledger in memory, keeping the users' balances; `createdAt` comes from `clock`, as the database's `now()`. */
export class InMemoryLedgerRepository implements LedgerRepository {
  private readonly entries: LedgerEntry[] = [];

  constructor(
    private readonly users: InMemoryUserRepository,
    private readonly clock: Clock,
  ) {}

  async post<E>(
    userId: number,
    decide: (balance: number) => Result<LedgerPosting, E>,
    options: PostingOptions = {},
  ): Promise<Result<LedgerEntry, E | UserNotFound>> {
    const balance = options.heldBalance ?? (await this.users.lockBalance(userId));
    if (balance === null) return err({ code: 'user_not_found' as const });
    const posting = decide(balance);
    if (!posting.ok) return posting;
    this.users.writeBalance(userId, posting.value.balanceAfter);
    const stored: LedgerEntry = {
      ...copy(posting.value),
      userId,
      id: this.entries.length + 1,
      description: posting.value.description.slice(0, 255),
      createdAt: this.clock.now(),
    };
    this.entries.push(stored);
    if (options.followUp) await options.followUp(copy(stored), balance);
    return ok(copy(stored));
  }

  /** Every entry of every account, oldest first (fakes that read the ledger across accounts). */
  all(): readonly LedgerEntry[] {
    return [...this.entries];
  }

  async list(userId: number, page: PageRequest, type?: LedgerEntryType): Promise<Page<LedgerEntry>> {
    const matching = this.entries
      .filter((e) => e.userId === userId && (type === undefined || e.type === type))
      .reverse();
    return pageOf(
      matching.map((e) => copy(e)),
      page,
    );
  }
}
