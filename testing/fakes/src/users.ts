import { Plan, User } from '@voiceplane/domain';
import { Clock, NewUser, Page, PageRequest, UserRepository } from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';

type Row = { -readonly [K in keyof User]: User[K] };

/** Users in memory; times the database would take from `now()` come from `clock`. */
export class InMemoryUserRepository implements UserRepository {
  private readonly rows = new Map<number, Row>();
  private lastId = 0;

  constructor(private readonly clock: Clock) {}

  async create(user: NewUser): Promise<User | null> {
    if (await this.findByEmail(user.email)) return null;
    const now = this.clock.now();
    const row: Row = {
      id: ++this.lastId,
      name: user.name,
      email: user.email,
      passwordHash: user.passwordHash,
      disabled: false,
      balance: 0,
      plan: copy(user.plan),
      createdAt: now,
      updatedAt: now,
    };
    this.rows.set(row.id, row);
    return copy(row);
  }

  async findById(id: number): Promise<User | null> {
    const row = this.rows.get(id);
    return row ? copy(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = [...this.rows.values()].find((r) => r.email.toLowerCase() === email.toLowerCase());
    return row ? copy(row) : null;
  }

  async list(page: PageRequest, email?: string): Promise<Page<User>> {
    const rows = [...this.rows.values()]
      .filter((r) => email === undefined || r.email.toLowerCase() === email.toLowerCase())
      .sort((a, b) => b.id - a.id);
    return pageOf(
      rows.map((r) => copy(r)),
      page,
    );
  }

  async updatePlan(id: number, plan: Plan): Promise<void> {
    this.change(id, { plan: copy(plan) });
  }

  async setDisabled(id: number, disabled: boolean): Promise<void> {
    this.change(id, { disabled });
  }

  /** No lock to take: the fakes run one use case step at a time. */
  async lockBalance(id: number): Promise<number | null> {
    return this.rows.get(id)?.balance ?? null;
  }

  /** Writes a balance as the ledger fake posts it, and as tests seed one. */
  writeBalance(id: number, balance: number): void {
    this.change(id, { balance });
  }

  private change(id: number, fields: Partial<Row>): void {
    const row = this.rows.get(id);
    if (row) Object.assign(row, fields, { updatedAt: this.clock.now() });
  }
}
