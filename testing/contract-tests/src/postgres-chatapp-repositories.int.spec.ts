import { randomUUID } from 'node:crypto';
import {
  PostgresSandboxChatappState,
  TypeormChatappMessageRepository,
  TypeormSendReservationRepository,
  TypeormInboundMediaRepository,
  TypeormConversationRepository,
  TypeormSenderRepository,
  TypeormTemplateRepository,
} from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { chatappRepositoriesContract } from './chatapp-repositories.contract';
import { insertUser } from './postgres-fixtures';
import { sandboxChatappStateContract } from './sandbox-chatapp-state.contract';
import { sendReservationsContract } from './send-reservations.contract';

const database = useTestDatabase();

chatappRepositoriesContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM chatapp_senders');
  return {
    senders: new TypeormSenderRepository(db),
    templates: new TypeormTemplateRepository(db),
    conversations: new TypeormConversationRepository(db),
    messages: new TypeormChatappMessageRepository(db),
    media: new TypeormInboundMediaRepository(db),
    users: [await insertUser(db), await insertUser(db)],
  };
});

it('lists the media of a message deleted by any path (a cascade too) for deletion from the store', async () => {
  const db = database();
  const user = await insertUser(db);
  const senders = new TypeormSenderRepository(db);
  const conversations = new TypeormConversationRepository(db);
  const media = new TypeormInboundMediaRepository(db);
  const now = new Date();
  const sender = (await senders.create({
    userId: user,
    phoneNumber: `+4930${Math.floor(Math.random() * 1e8)}`,
    displayName: 'Acme',
    status: 'online',
    qualityRating: 'GREEN',
    messagingLimit: 1000,
    countryCode: 'DE',
    assistantId: null,
    callingEnabled: false,
    statusWebhookUrl: null,
    provider: 'sandbox',
    providerSenderRef: null,
    providerAccountRef: null,
    sealedCredentials: null,
    now,
  }))!;
  const c = await conversations.lockOrCreate({
    userId: user,
    senderId: sender.id,
    customerPhone: '+14155551234',
    uuid: randomUUID(),
    now,
  });
  const { messageId } = await new TypeormChatappMessageRepository(db).record({
    userId: user,
    conversationId: c.id,
    senderId: sender.id,
    direction: 'inbound',
    source: 'customer',
    type: 'media',
    body: null,
    media: { url: null, mediaType: 'image', filename: null },
    templateId: null,
    from: '+14155551234',
    to: sender.phoneNumber,
    messageSid: `SM${randomUUID().replace(/-/g, '')}`,
    providerMessageId: null,
    status: 'received',
    cost: 0,
    fromAllowance: false,
    now,
  });
  const id = `med_${randomUUID().replace(/-/g, '').slice(0, 22)}`;
  await media.create({ id, userId: user, senderId: sender.id, messageId, source: { kind: 'provider', ref: id }, now });
  await db.query('DELETE FROM conversation_messages WHERE id = $1', [messageId]);
  expect(await media.find(id)).toBeNull();
  expect(await media.deletedIds(100_000)).toContain(id);
  await media.forgetDeleted([id]);
});

sandboxChatappStateContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM sandbox_chatapp_sent');
  await db.query('DELETE FROM sandbox_faults');
  return { state: new PostgresSandboxChatappState(db), users: [await insertUser(db), await insertUser(db)] };
});

sendReservationsContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM chatapp_send_reservations');
  const users = [await insertUser(db), await insertUser(db)] as const;
  const sender = (await new TypeormSenderRepository(db).create({
    userId: users[0],
    phoneNumber: `+4930${Math.floor(Math.random() * 1e8)}`,
    displayName: 'Acme',
    status: 'online',
    qualityRating: 'GREEN',
    messagingLimit: 1000,
    countryCode: 'DE',
    assistantId: null,
    callingEnabled: false,
    statusWebhookUrl: null,
    provider: 'sandbox',
    providerSenderRef: null,
    providerAccountRef: null,
    sealedCredentials: null,
    now: new Date(),
  }))!;
  const conversations = new TypeormConversationRepository(db);
  const conversation = await conversations.lockOrCreate({
    userId: users[0],
    senderId: sender.id,
    customerPhone: '+14155551234',
    uuid: randomUUID(),
    now: new Date(),
  });
  return { reservations: new TypeormSendReservationRepository(db), users, conversations, conversation };
});

describe('send reservations on PostgreSQL: the one-round-trip forms of a send', () => {
  const reserved = (userId: number, senderId: number, amount: number) => ({
    userId,
    senderId,
    recipientPhone: '+14155551234',
    messageSid: `SM${randomUUID().replace(/-/g, '')}`,
    amount,
    fromAllowance: amount === 0,
    now: new Date(),
    message: {
      source: 'api' as const,
      type: 'text' as const,
      body: 'hi',
      media: null,
      templateId: null,
      recipientName: null,
      createConversation: false,
      description: 'Freeform message',
      requestId: null,
    },
  });

  async function setUp() {
    const db = database();
    const user = await insertUser(db);
    const sender = (await new TypeormSenderRepository(db).create({
      userId: user,
      phoneNumber: `+4930${Math.floor(Math.random() * 1e8)}`,
      displayName: 'Acme',
      status: 'online',
      qualityRating: 'GREEN',
      messagingLimit: 1000,
      countryCode: 'DE',
      assistantId: null,
      callingEnabled: false,
      statusWebhookUrl: null,
      provider: 'sandbox',
      providerSenderRef: null,
      providerAccountRef: null,
      sealedCredentials: null,
      now: new Date(),
    }))!;
    const conversations = new TypeormConversationRepository(db);
    const conversation = await conversations.lockOrCreate({
      userId: user,
      senderId: sender.id,
      customerPhone: '+14155551234',
      uuid: randomUUID(),
      now: new Date(),
    });
    return { db, user, sender, conversations, conversation, reservations: new TypeormSendReservationRepository(db) };
  }

  /** Whether another connection finds the conversation's row locked. */
  async function lockedElsewhere(db: ReturnType<typeof database>, conversationId: number): Promise<boolean> {
    const other = db.dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.query('SELECT id FROM conversations WHERE id = $1 FOR NO KEY UPDATE NOWAIT', [conversationId]);
      return false;
    } catch {
      return true;
    } finally {
      await other.release();
    }
  }

  it('reads what the open reservations hold and locks the conversation, as held and lock do', async () => {
    const { db, user, sender, conversations, conversation, reservations } = await setUp();
    await reservations.reserve(reserved(user, sender.id, 0.25));
    await reservations.reserve(reserved(user, sender.id, 0));
    await db.transaction(async () => {
      const both = await reservations.heldLockingConversation(user, sender.id, '+14155551234');
      expect(both).toEqual({
        held: await reservations.held(user),
        conversation: await conversations.lock(sender.id, '+14155551234'),
      });
      expect(both.held).toEqual({ amount: 0.25, allowance: 1 });
      expect(both.conversation?.id).toBe(conversation.id);
      expect(await lockedElsewhere(db, conversation.id)).toBe(true);
    });
    expect(await lockedElsewhere(db, conversation.id)).toBe(false);
    expect(await reservations.heldLockingConversation(user, sender.id, '+14155550000')).toEqual({
      held: { amount: 0.25, allowance: 1 },
      conversation: null,
    });
  });

  it('locks the conversation and closes an open reservation once, as lock and close do', async () => {
    const { db, user, sender, conversations, conversation, reservations } = await setUp();
    const first = await reservations.reserve(reserved(user, sender.id, 0.5));
    await db.transaction(async () => {
      const closed = await reservations.closeLockingConversation(
        first.id,
        'sent',
        new Date(),
        sender.id,
        '+14155551234',
      );
      expect(closed).toEqual({ closed: true, conversation: await conversations.lock(sender.id, '+14155551234') });
      expect(await lockedElsewhere(db, conversation.id)).toBe(true);
    });
    expect(await reservations.held(user)).toEqual({ amount: 0, allowance: 0 });
    expect(
      (await reservations.closeLockingConversation(first.id, 'released', new Date(), sender.id, '+14155551234')).closed,
    ).toBe(false);
    const second = await reservations.reserve(reserved(user, sender.id, 0.5));
    expect(
      await reservations.closeLockingConversation(second.id, 'released', new Date(), sender.id, '+14155550000'),
    ).toEqual({ closed: true, conversation: null });
  });

  it('saves the conversation and records the message in one statement, as save and record do', async () => {
    const { db, user, sender, conversations, conversation } = await setUp();
    const messages = new TypeormChatappMessageRepository(db);
    const now = new Date(Date.now() + 1000);
    const next = {
      ...conversation,
      messageCount: conversation.messageCount + 1,
      lastMessageAt: now,
      updatedAt: now,
      customerName: 'Ada',
    };
    const stored = await db.transaction(async () => {
      await conversations.lock(sender.id, '+14155551234');
      return messages.recordSaving(next, {
        userId: user,
        conversationId: conversation.id,
        senderId: sender.id,
        direction: 'outbound',
        source: 'api',
        type: 'text',
        body: 'hello',
        media: null,
        templateId: null,
        from: sender.phoneNumber,
        to: '+14155551234',
        messageSid: `SM${randomUUID().replace(/-/g, '')}`,
        providerMessageId: 'wamid.1',
        status: 'sent',
        cost: 0.01,
        fromAllowance: false,
        now,
      });
    });
    expect(await conversations.find(sender.id, '+14155551234')).toEqual(next);
    expect(await messages.findOwnedBySid(user, stored.chatapp.messageSid)).toEqual(stored.chatapp);
    expect(stored.chatapp).toMatchObject({
      conversationId: conversation.id,
      status: 'sent',
      cost: 0.01,
      providerMessageId: 'wamid.1',
    });
  });
});
