import { NewSmsMessage, SandboxSmsState, SmsMessageRepository } from '@voiceplane/application';
import { nextSmsStatus } from '@voiceplane/domain';

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));

/** The SMS log and the sandbox SMS state, run against every implementation. `open` gives empty stores and two accounts. */
export function smsRepositoriesContract(
  name: string,
  open: () => Promise<{ messages: SmsMessageRepository; sandbox: SandboxSmsState; users: readonly [number, number] }>,
): void {
  describe(`SMS repositories contract: ${name}`, () => {
    const message = (userId: number, overrides: Partial<NewSmsMessage> = {}): NewSmsMessage => ({
      userId,
      phoneNumberId: 41,
      from: '+4930123456',
      to: '+4915123456789',
      body: 'Hello',
      encoding: 'gsm7',
      segments: 1,
      cost: 0.05,
      requestId: 'req_1',
      now: at(1),
      ...overrides,
    });

    it('holds the cost of pending messages only, per account; settles and releases once', async () => {
      const {
        messages,
        users: [a, b],
      } = await open();
      const one = await messages.reserve(message(a));
      const two = await messages.reserve(message(a, { cost: 0.1, segments: 2 }));
      await messages.reserve(message(b, { cost: 0.0125 }));
      expect(one).toMatchObject({ settlement: 'pending', status: 'sent', providerMessageId: null, cost: 0.05 });
      expect(await messages.held(a)).toBeCloseTo(0.15, 4);
      expect(await messages.held(b)).toBeCloseTo(0.0125, 4);

      const settled = await messages.settle(one.id, 'SMabc', at(2));
      expect(settled).toMatchObject({ id: one.id, settlement: 'settled', providerMessageId: 'SMabc', cost: 0.05 });
      expect(await messages.settle(one.id, 'SMother', at(3))).toBeNull();
      expect(await messages.release(one.id, 'late', at(3))).toBe(false);

      expect(await messages.release(two.id, 'refused by the carrier', at(2))).toBe(true);
      expect(await messages.release(two.id, 'again', at(3))).toBe(false);
      expect(await messages.find(a, two.id)).toMatchObject({
        settlement: 'released',
        status: 'failed',
        cost: 0,
        errorMessage: 'refused by the carrier',
      });
      expect(await messages.held(a)).toBe(0);
    });

    it('applies reports forward only, also before settlement, and only with the matching provider id', async () => {
      const {
        messages,
        users: [a],
      } = await open();
      const m = await messages.reserve(message(a));
      const report = (status: 'sent' | 'delivered' | 'failed', providerMessageId = 'SMx') =>
        messages.report(
          {
            reference: m.id,
            providerMessageId,
            status,
            errorCode: status === 'failed' ? '30003' : null,
            errorMessage: null,
          },
          (current) => nextSmsStatus(current, status),
          at(5),
        );
      expect(await report('sent')).toBeNull();
      expect(await report('delivered')).toMatchObject({ status: 'delivered', settlement: 'pending' });
      expect(await messages.settle(m.id, 'SMx', at(6))).toMatchObject({ status: 'delivered', settlement: 'settled' });
      expect(await report('failed')).toBeNull();

      const other = await messages.reserve(message(a));
      await messages.settle(other.id, 'SMy', at(6));
      expect(
        await messages.report(
          { reference: other.id, providerMessageId: 'SMforged', status: 'failed', errorCode: null, errorMessage: null },
          () => 'failed',
          at(7),
        ),
      ).toBeNull();
      expect(
        await messages.report(
          {
            reference: other.id,
            providerMessageId: 'SMy',
            status: 'failed',
            errorCode: '30003',
            errorMessage: 'Unreachable',
          },
          () => 'failed',
          at(7),
        ),
      ).toMatchObject({ status: 'failed', errorCode: '30003', errorMessage: 'Unreachable' });

      const released = await messages.reserve(message(a));
      await messages.release(released.id, 'no', at(8));
      expect(
        await messages.report(
          {
            reference: released.id,
            providerMessageId: 'SMz',
            status: 'delivered',
            errorCode: null,
            errorMessage: null,
          },
          () => 'delivered',
          at(9),
        ),
      ).toBeNull();
      expect(
        await messages.report(
          { reference: 987654321, providerMessageId: 'SMz', status: 'delivered', errorCode: null, errorMessage: null },
          () => 'delivered',
          at(9),
        ),
      ).toBeNull();
    });

    it('lists stale pending messages oldest first; a report keeps the provider id of a pending one', async () => {
      const {
        messages,
        users: [a, b],
      } = await open();
      const old = await messages.reserve(message(a, { now: at(1) }));
      const older = await messages.reserve(message(b, { now: at(0) }));
      const settled = await messages.reserve(message(a, { now: at(0) }));
      await messages.settle(settled.id, 'SMs', at(1));
      await messages.reserve(message(a, { now: at(30) }));
      const stale = (await messages.stalePending(at(10), 10)).filter((m) =>
        [old.id, older.id, settled.id].includes(m.id),
      );
      expect(stale.map((m) => m.id)).toEqual([older.id, old.id]);
      expect(
        await messages.report(
          { reference: old.id, providerMessageId: 'SMseen', status: 'sent', errorCode: null, errorMessage: null },
          () => null,
          at(11),
        ),
      ).toBeNull();
      expect((await messages.find(a, old.id))?.providerMessageId).toBe('SMseen');
      expect(
        await messages.report(
          { reference: old.id, providerMessageId: 'SMother', status: 'delivered', errorCode: null, errorMessage: null },
          () => 'delivered',
          at(12),
        ),
      ).toBeNull();
    });

    it('finds and lists only the account’s own messages, newest first, paged', async () => {
      const {
        messages,
        users: [a, b],
      } = await open();
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await messages.reserve(message(a, { body: `m${i}`, now: at(i) }))).id);
      const foreign = await messages.reserve(message(b));
      expect(await messages.find(b, ids[0])).toBeNull();
      expect(await messages.find(a, foreign.id)).toBeNull();
      expect((await messages.find(a, ids[0]))?.body).toBe('m0');
      const first = await messages.list(a, { page: 1, perPage: 2 });
      expect(first.total).toBe(3);
      expect(first.items.map((m) => m.body)).toEqual(['m2', 'm1']);
      expect((await messages.list(a, { page: 2, perPage: 2 })).items.map((m) => m.body)).toEqual(['m0']);
      expect(first.items[0]).toMatchObject({
        from: '+4930123456',
        to: '+4915123456789',
        encoding: 'gsm7',
        requestId: 'req_1',
      });
      expect(first.items[0].createdAt).toEqual(at(2));
    });

    it('sandbox: a fault aimed at the number is used first, arming again replaces, a faulted send is not recorded', async () => {
      const {
        sandbox,
        users: [a, b],
      } = await open();
      let n = 0;
      const send = (userId: number, phoneNumberId: number, kind = 'sms_send') =>
        sandbox.accept(
          {
            userId,
            phoneNumberId,
            from: '+4930123456',
            to: '+4915123456789',
            body: `s${++n}`,
            providerMessageId: `SBX${n}`,
            at: at(n),
          },
          kind,
        );
      expect(await send(a, 7)).toBe('sent');
      expect(await sandbox.armFault({ kind: 'sms_send', userId: a, targetId: null, count: 1 })).toBe(1);
      await sandbox.armFault({ kind: 'sms_send', userId: a, targetId: 7, count: 2 });
      await sandbox.armFault({ kind: 'sms_send', userId: a, targetId: 7, count: 1 });
      expect(await send(b, 7)).toBe('sent');
      expect(await send(a, 7, 'chatapp_send')).toBe('sent');
      expect([await send(a, 7), await send(a, 7), await send(a, 7)]).toEqual(['faulted', 'faulted', 'sent']);
      expect((await sandbox.outbox(a, 10)).map((m) => m.body)).toEqual(['s6', 's3', 's1']);
      expect((await sandbox.outbox(a, 1)).map((m) => m.providerMessageId)).toEqual(['SBX6']);
      expect((await sandbox.outbox(b, 10)).map((m) => m.body)).toEqual(['s2']);
      expect([
        await sandbox.wasSent(a, 'SBX6'),
        await sandbox.wasSent(a, 'SBX5'),
        await sandbox.wasSent(b, 'SBX6'),
      ]).toEqual([true, false, false]);
    });
  });
}
