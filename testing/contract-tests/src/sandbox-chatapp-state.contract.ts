import { SandboxChatappState } from '@voiceplane/application';

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));

/** The sandbox chat app's state, run against every implementation. `open` gives an empty state and two accounts. */
export function sandboxChatappStateContract(
  name: string,
  open: () => Promise<{ state: SandboxChatappState; users: readonly [number, number] }>,
): void {
  describe(`SandboxChatappState contract: ${name}`, () => {
    it('a fault aimed at the sender is used before the account-wide one; arming again replaces; a faulted send is not recorded', async () => {
      const {
        state,
        users: [a, b],
      } = await open();
      let n = 0;
      const send = (userId: number, senderId: number, kind = 'chatapp_send') =>
        state.accept(
          {
            userId,
            senderId,
            to: '+14155550001',
            type: 'text',
            body: `f${++n}`,
            mediaUrl: null,
            providerMessageId: `sbx_f${n}_${userId}`,
            at: at(n),
          },
          kind,
        );
      expect(await send(a, 7)).toBe('sent');
      expect(await state.armFault({ kind: 'chatapp_send', userId: a, targetId: null, count: 1 })).toBe(1);
      await state.armFault({ kind: 'chatapp_send', userId: a, targetId: 7, count: 2 });
      await state.armFault({ kind: 'chatapp_send', userId: a, targetId: 7, count: 1 });
      expect(await send(b, 7)).toBe('sent');
      expect(await send(a, 7, 'other')).toBe('sent');
      expect([await send(a, 7), await send(a, 7), await send(a, 7)]).toEqual(['faulted', 'faulted', 'sent']);
      expect((await state.outbox(a, {}, 10)).map((m) => m.body)).toEqual(['f6', 'f3', 'f1']);
      expect([
        await state.wasSent(a, `sbx_f6_${a}`),
        await state.wasSent(a, `sbx_f5_${a}`),
        await state.wasSent(b, `sbx_f6_${a}`),
      ]).toEqual([true, false, false]);
    });

    it('lists what was sent, newest first, per account and filters', async () => {
      const {
        state,
        users: [a, b],
      } = await open();
      const sent = (senderId: number, to: string, minute: number, userId = a) =>
        state.accept(
          {
            userId,
            senderId,
            to,
            type: 'text',
            body: `m${minute}`,
            mediaUrl: null,
            providerMessageId: `sbx_${minute}_${userId}`,
            at: at(minute),
          },
          'chatapp_send',
        );
      await sent(1, '+14155550001', 1);
      await sent(2, '+14155550002', 2);
      await sent(1, '+14155550002', 3);
      await sent(1, '+14155550001', 4, b);
      expect((await state.outbox(a, {}, 10)).map((m) => m.body)).toEqual(['m3', 'm2', 'm1']);
      expect((await state.outbox(a, { senderId: 1 }, 10)).map((m) => m.body)).toEqual(['m3', 'm1']);
      expect((await state.outbox(a, { to: '+14155550002' }, 1)).map((m) => m.body)).toEqual(['m3']);
      expect((await state.outbox(a, {}, 1))[0]).toEqual({
        messageSid: null,
        senderId: 1,
        to: '+14155550002',
        type: 'text',
        body: 'm3',
        mediaUrl: null,
        templateId: null,
        at: at(3),
      });
    });
  });
}
