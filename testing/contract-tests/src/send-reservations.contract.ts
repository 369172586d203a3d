import { Conversation } from '@voiceplane/domain';
import { ConversationRepository, NewSendReservation, SendReservationRepository } from '@voiceplane/application';

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));

/**
 * Chat-app send reservations, run against every implementation. `open` gives an empty store, two
 * accounts, and a conversation of the first account (with the conversations it is locked through).
 */
export function sendReservationsContract(
  name: string,
  open: () => Promise<{
    reservations: SendReservationRepository;
    users: readonly [number, number];
    conversations: ConversationRepository;
    conversation: Conversation;
  }>,
): void {
  describe(`SendReservationRepository contract: ${name}`, () => {
    let n = 0;
    const reservation = (
      userId: number,
      amount: number,
      minute: number,
      fromAllowance = false,
    ): NewSendReservation => ({
      userId,
      senderId: 7,
      recipientPhone: '+14155550001',
      messageSid: `SM${String(++n).padStart(4, '0')}${'0'.repeat(28)}`,
      amount,
      fromAllowance,
      now: at(minute),
      message: {
        source: 'api',
        type: 'text',
        body: 'hi',
        media: null,
        templateId: null,
        recipientName: null,
        createConversation: false,
        description: 'Freeform message',
        requestId: null,
      },
    });

    it('holds what open reservations of the user reserve, and nothing once they are closed', async () => {
      const {
        reservations,
        users: [a, b],
      } = await open();
      const first = await reservations.reserve(reservation(a, 0.25, 1));
      await reservations.reserve(reservation(a, 0, 2, true));
      await reservations.reserve(reservation(b, 1, 3));
      expect(await reservations.held(a)).toEqual({ amount: 0.25, allowance: 1 });
      expect(await reservations.close(first.id, 'sent', at(4))).toBe(true);
      expect(await reservations.held(a)).toEqual({ amount: 0, allowance: 1 });
      expect(await reservations.held(b)).toEqual({ amount: 1, allowance: 0 });
    });

    it('reads what the open reservations hold and locks the conversation in one call, as held and lock do', async () => {
      const {
        reservations,
        users: [a],
        conversations,
        conversation,
      } = await open();
      // A chat-app conversation: its sender and customer are set.
      const [senderId, customerPhone] = [conversation.senderId!, conversation.customerPhone!];
      await reservations.reserve(reservation(a, 0.25, 1));
      await reservations.reserve(reservation(a, 0, 2, true));
      const both = await reservations.heldLockingConversation(a, senderId, customerPhone);
      expect(both).toEqual({
        held: await reservations.held(a),
        conversation: await conversations.lock(senderId, customerPhone),
      });
      expect(both.held).toEqual({ amount: 0.25, allowance: 1 });
      expect(both.conversation?.id).toBe(conversation.id);
      expect(await reservations.heldLockingConversation(a, senderId, '+14155550000')).toEqual({
        held: { amount: 0.25, allowance: 1 },
        conversation: null,
      });
    });

    it('locks the conversation and closes an open reservation once in one call, as lock and close do', async () => {
      const {
        reservations,
        users: [a],
        conversations,
        conversation,
      } = await open();
      // A chat-app conversation: its sender and customer are set.
      const [senderId, customerPhone] = [conversation.senderId!, conversation.customerPhone!];
      const first = await reservations.reserve(reservation(a, 0.5, 1));
      expect(await reservations.closeLockingConversation(first.id, 'sent', at(2), senderId, customerPhone)).toEqual({
        closed: true,
        conversation: await conversations.lock(senderId, customerPhone),
      });
      expect(await reservations.held(a)).toEqual({ amount: 0, allowance: 0 });
      expect(
        (await reservations.closeLockingConversation(first.id, 'released', at(3), senderId, customerPhone)).closed,
      ).toBe(false);
      const second = await reservations.reserve(reservation(a, 0.5, 4));
      expect(
        await reservations.closeLockingConversation(second.id, 'released', at(5), senderId, '+14155550000'),
      ).toEqual({ closed: true, conversation: null });
    });

    it('closes a reservation once, and lists open ones made before a time, oldest first, as they were reserved', async () => {
      const {
        reservations,
        users: [a],
      } = await open();
      const old = reservation(a, 0.5, 1);
      const kept = await reservations.reserve(old);
      const closed = await reservations.reserve(reservation(a, 0.5, 2));
      await reservations.reserve(reservation(a, 0.5, 30));
      expect(
        await Promise.all([
          reservations.close(closed.id, 'released', at(3)),
          reservations.close(closed.id, 'sent', at(3)),
        ]),
      ).toEqual([true, false]);
      expect(await reservations.open(at(10), 10)).toEqual([{ ...old, id: kept.id }]);
    });
  });
}
