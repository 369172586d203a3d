import { ok, RuntimeConfig } from '@voiceplane/domain';
import { CallRepository, NewCall } from '@voiceplane/application';

export interface CallRepositoryFixture {
  readonly calls: CallRepository;
  /** Two accounts calls may belong to. */
  readonly users: readonly [number, number];
  /** What the outbox holds, oldest first. */
  outbox(): Promise<Array<{ readonly topic: string; readonly payload: unknown }>>;
}

const AT = new Date('2030-04-01T09:00:00.000Z');
const LATER = new Date('2030-04-01T09:00:05.000Z');
// Keys deliberately out of alphabetical order: documents come back as written.
const CONFIG = { variables: { zeta: '1', alpha: '2' }, direction: 'outbound' } as unknown as RuntimeConfig;

/** Yields to everything already queued, so a change that does not wait for a lock would have run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The CallRepository port's behaviour, run against every implementation. `open` gives an empty store for each test. */
export function callRepositoryContract(name: string, open: () => Promise<CallRepositoryFixture>): void {
  describe(`CallRepository contract: ${name}`, () => {
    let f: CallRepositoryFixture;
    const newCall = (over: Partial<NewCall> = {}): NewCall => ({
      userId: f.users[0],
      assistantId: 101,
      direction: 'outbound',
      channel: 'phone',
      status: 'initiated',
      customerPhone: '+14155551234',
      line: { phoneNumberId: null, phoneNumber: '+14155550000', sip: null },
      variables: { zeta: 'z', alpha: 'a' },
      runtimeConfig: CONFIG,
      now: AT,
      ...over,
    });

    beforeEach(async () => {
      f = await open();
    });

    it('stores a new call with nothing measured yet, and shows it to its owner only', async () => {
      const { call, created } = await f.calls.create(
        newCall({ conversationId: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66', senderId: 12 }),
      );

      expect(created).toBe(true);
      expect(call).toEqual({
        id: expect.any(Number),
        userId: f.users[0],
        assistantId: 101,
        direction: 'outbound',
        channel: 'phone',
        status: 'initiated',
        customerPhone: '+14155551234',
        assistantPhone: '+14155550000',
        phoneNumberId: null,
        senderId: 12,
        conversationId: '9b2f6c1e-4a7d-4c1b-9d7e-2f1a0c3b5e66',
        automationRunId: null,
        campaignId: null,
        leadId: null,
        variables: { zeta: 'z', alpha: 'a' },
        extractedVariables: {},
        duration: 0,
        cost: 0,
        recordingUrl: null,
        endedReason: null,
        transcript: [],
        runtimeConfig: CONFIG,
        providerCallId: null,
        createdAt: AT,
        answeredAt: null,
        finishedAt: null,
        updatedAt: AT,
      });
      expect(Object.keys(call.variables)).toEqual(['zeta', 'alpha']);
      expect(await f.calls.findOwned(f.users[0], call.id)).toEqual(call);
      expect(await f.calls.findById(call.id)).toEqual(call);
      expect(await f.calls.findOwned(f.users[1], call.id)).toBeNull();
      expect(await f.calls.findById(call.id + 1000)).toBeNull();
    });

    it("counts a sender's open chat-app calls and the contact's attempts since a time", async () => {
      const chatapp = (over: Partial<NewCall>) =>
        f.calls.create(newCall({ channel: 'chatapp', status: 'queued', senderId: 12, ...over }));
      await chatapp({ now: AT });
      await chatapp({ now: LATER, status: 'ringing' });
      await chatapp({ now: LATER, customerPhone: '+14155559999', status: 'in-progress' });
      const ended = (await chatapp({ now: LATER, status: 'queued' })).call;
      await f.calls.update(ended.id, async () =>
        ok({ changes: { status: 'failed' as const }, at: LATER, answer: null }),
      );
      await chatapp({ now: LATER, senderId: 13 });
      await f.calls.create(newCall({ now: LATER, senderId: 12 }));

      const activity = await f.calls.chatappActivity(12, '+14155551234', new Date(LATER.getTime() - 1), false);

      expect([...activity.openStatuses].sort()).toEqual(['in-progress', 'queued', 'ringing']);
      expect(activity.contactAttempts).toEqual([LATER, LATER]);
      expect((await f.calls.chatappActivity(12, '+14155551234', AT, false)).contactAttempts).toEqual([
        AT,
        LATER,
        LATER,
      ]);
      expect(await f.calls.chatappActivity(99, '+14155551234', AT, false)).toEqual({
        openStatuses: [],
        contactAttempts: [],
      });
    });

    it('answers a second create with the same provider call id with the first call', async () => {
      const first = await f.calls.create(newCall({ direction: 'inbound', status: 'ringing', providerCallId: 'lk-1' }));
      const second = await f.calls.create(
        newCall({ direction: 'inbound', status: 'ringing', providerCallId: 'lk-1', customerPhone: '+14155559999' }),
      );

      expect(second).toEqual({ call: first.call, created: false });
      expect((await f.calls.findByProviderCallId('lk-1'))?.id).toBe(first.call.id);
      expect(await f.calls.findByProviderCallId('lk-2')).toBeNull();
    });

    it('counts the calls of one user that have not ended', async () => {
      const { call } = await f.calls.create(newCall());
      await f.calls.create(newCall({ status: 'ringing' }));
      await f.calls.create(newCall({ userId: f.users[1] }));
      await f.calls.update(call.id, async () =>
        ok({ changes: { status: 'completed' as const }, at: LATER, answer: null }),
      );

      expect(await f.calls.countActive(f.users[0])).toBe(1);
      expect(await f.calls.countActive(f.users[1])).toBe(1);
      expect(await f.calls.openCallCounts(f.users[0])).toEqual({ phone: 1, chatapp: 0 });
      expect(await f.calls.openCallCounts(f.users[1])).toEqual({ phone: 1, chatapp: 0 });
    });

    it('writes what a change decided about the call, then its events, and answers what the change answered', async () => {
      const { call } = await f.calls.create(newCall());
      const seen: string[] = [];

      const answer = await f.calls.update(call.id, async (current) => {
        seen.push(current.status);
        return ok({
          changes: {
            status: 'in-progress' as const,
            answeredAt: LATER,
            transcript: [{ role: 'assistant' as const, content: 'Hi', at: LATER.toISOString() }],
          },
          events: [
            { topic: 'call.first', payload: { call_id: current.id } },
            { topic: 'call.second', payload: { n: 2 } },
          ],
          at: LATER,
          answer: 'moved',
        });
      });

      expect(answer).toEqual(ok('moved'));
      expect(seen).toEqual(['initiated']);
      expect(await f.calls.findById(call.id)).toEqual({
        ...call,
        status: 'in-progress',
        answeredAt: LATER,
        transcript: [{ role: 'assistant', content: 'Hi', at: LATER.toISOString() }],
        updatedAt: LATER,
      });
      expect(await f.outbox()).toEqual([
        { topic: 'call.first', payload: { call_id: call.id } },
        { topic: 'call.second', payload: { n: 2 } },
      ]);
    });

    it('writes nothing of a refused change, and leaves a change without fields unwritten', async () => {
      const { call } = await f.calls.create(newCall());

      const refused = await f.calls.update(call.id, async () => ({
        ok: false as const,
        error: { code: 'no_thanks' as const },
      }));
      const idle = await f.calls.update(call.id, async () => ok({ changes: {}, at: LATER, answer: 'idle' }));

      expect(refused).toEqual({ ok: false, error: { code: 'no_thanks' } });
      expect(idle).toEqual(ok('idle'));
      expect(await f.calls.findById(call.id)).toEqual(call);
      expect(await f.outbox()).toEqual([]);
    });

    it("deletes the owner's call when the decision agrees, with its runtime events; keeps it on a refusal; another account's is not found", async () => {
      const { call } = await f.calls.create(newCall());
      await f.calls.recordRuntimeEvent(call.id, 'evt-1', { type: 'ringing', status: 'ringing' }, AT);
      let asked = 0;

      const foreign = await f.calls.delete(f.users[1], call.id, async () => {
        asked += 1;
        return ok(undefined);
      });
      const refused = await f.calls.delete(f.users[0], call.id, async () => ({
        ok: false as const,
        error: 'in_progress' as const,
      }));
      expect([foreign, refused, asked]).toEqual([
        { ok: false, error: { code: 'call_not_found' } },
        { ok: false, error: 'in_progress' },
        0,
      ]);
      expect(await f.calls.findById(call.id)).toEqual(call);

      const deleted = await f.calls.delete(f.users[0], call.id, async (seen) =>
        seen.id === call.id ? ok(undefined) : { ok: false as const, error: 'wrong' },
      );
      expect(deleted).toEqual(ok(call));
      expect(await f.calls.findById(call.id)).toBeNull();
      expect(await f.calls.findRuntimeEvent(call.id, 'evt-1')).toBeNull();
      expect(await f.calls.delete(f.users[0], call.id, async () => ok(undefined))).toEqual({
        ok: false,
        error: { code: 'call_not_found' },
      });
    });

    it('refuses a change to a call that does not exist without asking the change', async () => {
      let asked = false;
      const result = await f.calls.update(424_242, async () => {
        asked = true;
        return ok({ changes: {}, at: AT, answer: null });
      });

      expect(result).toEqual({ ok: false, error: { code: 'call_not_found' } });
      expect(asked).toBe(false);
    });

    it('holds the call while a change is decided: a second change sees what the first wrote', async () => {
      const { call } = await f.calls.create(newCall());
      const order: string[] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const firstStarted = new Promise<void>((resolve) => (started = resolve));

      const first = f.calls.update(call.id, async () => {
        order.push('first decides');
        started();
        await held;
        return ok({ changes: { status: 'ringing' as const }, at: LATER, answer: null });
      });
      await firstStarted;
      const second = f.calls.update(call.id, async (current) => {
        order.push(`second saw ${current.status}`);
        return ok({ changes: {}, at: LATER, answer: null });
      });
      await settle();
      expect(order).toEqual(['first decides']);
      release();
      await Promise.all([first, second]);

      expect(order).toEqual(['first decides', 'second saw ringing']);
    });

    it('remembers accepted runtime events per call and refuses to record one twice', async () => {
      const { call } = await f.calls.create(newCall());
      await f.calls.recordRuntimeEvent(call.id, 'e-1', { type: 'ringing', status: 'ringing' }, AT);

      expect(await f.calls.findRuntimeEvent(call.id, 'e-1')).toEqual({ type: 'ringing', status: 'ringing' });
      expect(await f.calls.findRuntimeEvent(call.id, 'e-2')).toBeNull();
      await expect(
        f.calls.recordRuntimeEvent(call.id, 'e-1', { type: 'answered', status: 'in-progress' }, AT),
      ).rejects.toThrow();
    });

    it("lists a user's calls newest first, filtered, one page at a time, without the conversation", async () => {
      const a = (await f.calls.create(newCall())).call;
      const b = (await f.calls.create(newCall({ status: 'ringing' }))).call;
      const c = (await f.calls.create(newCall())).call;
      await f.calls.create(newCall({ userId: f.users[1] }));

      const page = await f.calls.list(f.users[0], {}, { page: 1, perPage: 2 });
      expect(page.total).toBe(3);
      expect(page.items.map((i) => i.id)).toEqual([c.id, b.id]);
      expect(page.items[0]).not.toHaveProperty('transcript');
      expect(page.items[0]).not.toHaveProperty('runtimeConfig');
      expect((await f.calls.list(f.users[0], {}, { page: 2, perPage: 2 })).items.map((i) => i.id)).toEqual([a.id]);
      expect(
        (await f.calls.list(f.users[0], { status: 'ringing' }, { page: 1, perPage: 15 })).items.map((i) => i.id),
      ).toEqual([b.id]);
    });
  });
}
