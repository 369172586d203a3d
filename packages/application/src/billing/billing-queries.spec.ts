import { FakeStore, InMemoryChatappMessageRepository } from '@voiceplane/adapter-fakes';
import { DEFAULT_CALL_MINUTE_PRICES, ok, OpenCallCounts } from '@voiceplane/domain';
import { BillingQueries } from './billing-queries';

/** The owner's view of an account's money on the in-memory stores. */

function setup() {
  const store = new FakeStore(new Date('2030-04-10T09:00:00.000Z'));
  const messages = new InMemoryChatappMessageRepository();
  const open = new Map<number, OpenCallCounts>();
  const calls = { openCallCounts: async (userId: number) => open.get(userId) ?? { phone: 0, chatapp: 0 } };
  const queries = new BillingQueries(store.users, store.ledger, messages, store.clock, {
    calls,
    prices: DEFAULT_CALL_MINUTE_PRICES,
  });
  const templateSent = (userId: number, at: Date, fromAllowance = true) =>
    messages.record({
      userId,
      conversationId: 1,
      senderId: 1,
      direction: 'outbound',
      source: 'api',
      type: 'template',
      body: 'hi',
      media: null,
      templateId: 1,
      from: '+14155550100',
      to: '+14155550101',
      messageSid: `SM${at.getTime()}`,
      providerMessageId: null,
      status: 'queued',
      cost: 0,
      fromAllowance,
      now: at,
    });
  return { store, queries, templateSent, open };
}

describe('BillingQueries', () => {
  it("counts what is left of this month's template allowance and when it resets", async () => {
    const s = setup();
    const user = await s.store.account({ balance: 12.5, plan: { included_template_messages: 3 } });
    await s.templateSent(user.id, new Date('2030-03-31T23:59:59.000Z'));
    await s.templateSent(user.id, new Date('2030-04-01T00:00:00.000Z'));
    await s.templateSent(user.id, new Date('2030-04-09T00:00:00.000Z'), false);
    expect(await s.queries.balance(user.id)).toEqual({
      ok: true,
      value: {
        user: expect.objectContaining({ id: user.id, balance: 12.5 }),
        reserved: 0,
        includedTemplateMessagesRemaining: 2,
        allowanceResetsAt: new Date('2030-05-01T00:00:00.000Z'),
      },
    });
  });

  it("reports what the calls in progress reserve: the first minute of each at its channel's price", async () => {
    const s = setup();
    const user = await s.store.account({ balance: 1 });
    s.open.set(user.id, { phone: 2, chatapp: 1 });
    expect(await s.queries.balance(user.id)).toEqual({ ok: true, value: expect.objectContaining({ reserved: 0.28 }) });
  });

  it('never answers less than none left, and none on a plan without an allowance', async () => {
    const s = setup();
    const lowered = await s.store.account({ plan: { included_template_messages: 1 } });
    await s.templateSent(lowered.id, new Date('2030-04-02T00:00:00.000Z'));
    await s.templateSent(lowered.id, new Date('2030-04-03T00:00:00.000Z'));
    const without = await s.store.account();
    await s.templateSent(without.id, new Date('2030-04-02T00:00:00.000Z'));
    expect(await s.queries.balance(lowered.id)).toEqual({
      ok: true,
      value: expect.objectContaining({ includedTemplateMessagesRemaining: 0 }),
    });
    expect(await s.queries.balance(without.id)).toEqual({
      ok: true,
      value: expect.objectContaining({ includedTemplateMessagesRemaining: 0 }),
    });
  });

  it('refuses an account that is gone', async () => {
    const s = setup();
    expect(await s.queries.balance(999)).toEqual({ ok: false, error: 'account_gone' });
  });

  it("lists the account's own ledger entries, of one type when asked", async () => {
    const s = setup();
    const user = await s.store.account();
    const other = await s.store.account();
    const posting = (amount: number) => (balance: number) =>
      ok({
        type: amount > 0 ? ('top_up' as const) : ('charge' as const),
        amount,
        balanceAfter: balance + amount,
        description: 'd',
        reference: null,
        requestId: null,
      });
    await s.store.ledger.post(user.id, posting(10));
    await s.store.ledger.post(user.id, posting(-2));
    await s.store.ledger.post(other.id, posting(5));
    const page = { page: 1, perPage: 15 };
    expect((await s.queries.entries(user.id, page)).items.map((e) => e.amount)).toEqual([-2, 10]);
    expect((await s.queries.entries(user.id, page, 'top_up')).items.map((e) => e.amount)).toEqual([10]);
  });
});
