import { DEFAULT_PLAN, err, ok } from '@voiceplane/domain';
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

      expect(user).toEqual(
        expect.objectContaining({
          id: expect.any(Number),
          name: 'Ada',
          email: 'Ada@Example.test',
          passwordHash: null,
          disabled: false,
          balance: 0,
          plan: DEFAULT_PLAN,
        }),
      );
      expect(await f.users.create(newUser('ada@example.TEST'))).toBeNull();
      expect((await f.users.findByEmail('ADA@example.test'))?.id).toBe(user!.id);
      expect(await f.users.findById(user!.id)).toEqual(user);
      expect(await f.users.findById(user!.id + 1000)).toBeNull();
    });

    it('posts a balance change: the entry is appended and its balance after becomes the balance', async () => {
      const user = (await f.users.create(newUser('balance@example.test')))!;
      const seen: number[] = [];
      const post = (amount: number, over: object = {}) =>
        f.ledger.post(user.id, (balance) => {
          seen.push(balance);
          return ok({
            type: amount > 0 ? ('top_up' as const) : ('charge' as const),
            amount,
            balanceAfter: balance + amount,
            description: 'Call 1 (2 min)',
            reference: { type: 'call' as const, id: 1 },
            requestId: null,
            ...over,
          });
        });

      const topUp = await post(10, { reference: null, requestId: 'req-1', description: 'x'.repeat(300) });
      const charge = await post(-0.2);

      expect(seen).toEqual([0, 10]);
      expect(topUp).toEqual(
        ok(
          expect.objectContaining({
            userId: user.id,
            type: 'top_up',
            amount: 10,
            balanceAfter: 10,
            reference: null,
            requestId: 'req-1',
            description: 'x'.repeat(255),
          }),
        ),
      );
      expect(charge).toEqual(
        ok({
          id: expect.any(Number),
          userId: user.id,
          type: 'charge',
          amount: -0.2,
          balanceAfter: 9.8,
          description: 'Call 1 (2 min)',
          reference: { type: 'call', id: 1 },
          requestId: null,
          createdAt: expect.any(Date),
        }),
      );
      expect((await f.users.findById(user.id))?.balance).toBe(9.8);
      expect(await f.uow.transaction(() => f.users.lockBalance(user.id))).toBe(9.8);
    });

    it('runs the follow-up after the entry is appended, with the entry and the balance before it; never after a refusal', async () => {
      const user = (await f.users.create(newUser('follow-up@example.test')))!;
      const seen: unknown[] = [];
      const followUp = async (entry: unknown, before: number) => {
        seen.push([entry, before]);
      };
      const posting = (amount: number) => (balance: number) =>
        ok({
          type: 'charge' as const,
          amount,
          balanceAfter: balance + amount,
          description: 'x',
          reference: null,
          requestId: null,
        });
      const posted = await f.ledger.post(user.id, posting(5), { followUp });
      await f.ledger.post(user.id, () => err({ code: 'insufficient_balance' as const }), { followUp });
      await f.ledger.post(user.id, posting(-1.5), { followUp });

      expect(seen).toEqual([
        [posted.ok && posted.value, 0],
        [expect.objectContaining({ amount: -1.5, balanceAfter: 3.5 }), 5],
      ]);
    });

    it("posts on the balance its caller holds the lock of, in the caller's transaction", async () => {
      const user = (await f.users.create(newUser('held@example.test')))!;
      await f.ledger.post(user.id, (balance) =>
        ok({
          type: 'top_up' as const,
          amount: 4,
          balanceAfter: balance + 4,
          description: 'x',
          reference: null,
          requestId: null,
        }),
      );
      const seen: number[] = [];

      const posted = await f.uow.transaction(async () => {
        const held = (await f.users.lockBalance(user.id))!;
        return f.ledger.post(
          user.id,
          (balance) => {
            seen.push(balance);
            return ok({
              type: 'charge' as const,
              amount: -1.25,
              balanceAfter: balance - 1.25,
              description: 'held',
              reference: null,
              requestId: null,
            });
          },
          { heldBalance: held },
        );
      });

      expect(seen).toEqual([4]);
      expect(posted).toEqual(ok(expect.objectContaining({ amount: -1.25, balanceAfter: 2.75, description: 'held' })));
      expect((await f.users.findById(user.id))?.balance).toBe(2.75);
      expect((await f.ledger.list(user.id, { page: 1, perPage: 15 })).items.map((e) => e.balanceAfter)).toEqual([
        2.75, 4,
      ]);
    });

    it('writes nothing of a refused posting, and refuses a missing user without asking', async () => {
      const user = (await f.users.create(newUser('refused@example.test')))!;
      let asked = false;

      expect(await f.ledger.post(user.id, () => err({ code: 'insufficient_balance' as const }))).toEqual(
        err({ code: 'insufficient_balance' }),
      );
      expect(
        await f.ledger.post(user.id + 1000, () => {
          asked = true;
          return err('never' as const);
        }),
      ).toEqual(err({ code: 'user_not_found' }));

      expect(asked).toBe(false);
      expect((await f.users.findById(user.id))?.balance).toBe(0);
      expect((await f.ledger.list(user.id, { page: 1, perPage: 15 })).total).toBe(0);
      expect(await f.uow.transaction(() => f.users.lockBalance(user.id + 1000))).toBeNull();
    });

    it("lists a user's ledger entries newest first, by type, one page at a time", async () => {
      const user = (await f.users.create(newUser('ledger@example.test')))!;
      const other = (await f.users.create(newUser('other@example.test')))!;
      const post = (userId: number, type: 'top_up' | 'charge', amount: number) =>
        f.ledger.post(userId, (balance) =>
          ok({ type, amount, balanceAfter: balance + amount, description: type, reference: null, requestId: null }),
        );

      const first = await post(user.id, 'top_up', 5);
      const second = await post(user.id, 'charge', -1);
      await post(other.id, 'top_up', 3);

      const [a, b] = [first, second].map((r) => (r.ok ? r.value : null));
      const all = await f.ledger.list(user.id, { page: 1, perPage: 15 });
      expect(all.total).toBe(2);
      expect(all.items).toEqual([b, a]);
      expect((await f.ledger.list(user.id, { page: 2, perPage: 1 })).items).toEqual([a]);
      expect((await f.ledger.list(user.id, { page: 1, perPage: 15 }, 'charge')).items).toEqual([b]);
    });
  });
}
