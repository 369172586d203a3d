import { DEFAULT_PLAN } from '@voiceplane/domain';
import { LedgerRepository, UnitOfWork, UserRepository } from '@voiceplane/application';

export interface AccountsLedgerFixture {
  readonly users: UserRepository;
  readonly ledger: LedgerRepository;
  readonly uow: UnitOfWork;
}

/**
 * The UserRepository and LedgerRepository ports' behaviour (what balance changes rely on), run
 * against every implementation. `open` gives empty stores for each test.
 */
export function accountsLedgerContract(name: string, open: () => Promise<AccountsLedgerFixture>): void {
  describe(`UserRepository and LedgerRepository contract: ${name}`, () => {
    let f: AccountsLedgerFixture;
    const newUser = (email: string) => ({ name: 'Ada', email, passwordHash: null, plan: DEFAULT_PLAN });

    beforeEach(async () => {
      f = await open();
    });

    it('creates a user with a zero balance and refuses a second one with the same e-mail in any case', async () => {
      const user = await f.users.create(newUser('Ada@Example.test'));

      expect(user).toEqual(expect.objectContaining({ id: expect.any(Number), name: 'Ada', email: 'Ada@Example.test', passwordHash: null, disabled: false, balance: 0, plan: DEFAULT_PLAN }));
      expect(await f.users.create(newUser('ada@example.TEST'))).toBeNull();
      expect((await f.users.findByEmail('ADA@example.test'))?.id).toBe(user!.id);
      expect(await f.users.findById(user!.id)).toEqual(user);
      expect(await f.users.findById(user!.id + 1000)).toBeNull();
    });

    it('reads and writes the balance inside a transaction', async () => {
      const user = (await f.users.create(newUser('balance@example.test')))!;

      const seen = await f.uow.transaction(async () => {
        const before = await f.users.lockBalance(user.id);
        await f.users.setBalance(user.id, 12.3456);
        return before;
      });

      expect(seen).toBe(0);
      expect((await f.users.findById(user.id))?.balance).toBe(12.3456);
      expect(await f.uow.transaction(() => f.users.lockBalance(user.id + 1000))).toBeNull();
    });

    it('appends ledger entries and lists a user\'s newest first, by type, one page at a time', async () => {
      const user = (await f.users.create(newUser('ledger@example.test')))!;
      const other = (await f.users.create(newUser('other@example.test')))!;
      const entry = (over: object) => ({
        userId: user.id, type: 'charge' as const, amount: -0.2, balanceAfter: 9.8, description: 'Call 1 (2 min)', reference: { type: 'call' as const, id: 1 }, requestId: null, ...over,
      });

      const first = await f.ledger.append(entry({}));
      const second = await f.ledger.append(entry({ type: 'top_up', amount: 5, balanceAfter: 14.8, reference: null, requestId: 'req-1', description: 'x'.repeat(300) }));
      await f.ledger.append(entry({ userId: other.id }));

      expect(first).toEqual({ ...entry({}), id: expect.any(Number), createdAt: expect.any(Date) });
      expect(second.description).toBe('x'.repeat(255));
      const all = await f.ledger.list(user.id, { page: 1, perPage: 15 });
      expect(all.total).toBe(2);
      expect(all.items.map((e) => e.id)).toEqual([second.id, first.id]);
      expect(all.items[1]).toEqual(first);
      expect((await f.ledger.list(user.id, { page: 2, perPage: 1 })).items.map((e) => e.id)).toEqual([first.id]);
      expect((await f.ledger.list(user.id, { page: 1, perPage: 15 }, 'charge')).items.map((e) => e.id)).toEqual([first.id]);
    });
  });
}
