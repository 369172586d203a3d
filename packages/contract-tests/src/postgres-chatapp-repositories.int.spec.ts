import { randomUUID } from 'node:crypto';
import {
  PostgresSandboxChatappState, TypeormChatappMessageRepository, TypeormSendReservationRepository, TypeormInboundMediaRepository, TypeormConversationRepository, TypeormSenderRepository, TypeormTemplateRepository,
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
    senders: new TypeormSenderRepository(db), templates: new TypeormTemplateRepository(db), conversations: new TypeormConversationRepository(db),
    messages: new TypeormChatappMessageRepository(db), media: new TypeormInboundMediaRepository(db), users: [await insertUser(db), await insertUser(db)],
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
    userId: user, phoneNumber: `+4930${Math.floor(Math.random() * 1e8)}`, displayName: 'Acme', status: 'online', qualityRating: 'GREEN', messagingLimit: 1000,
    countryCode: 'DE', assistantId: null, callingEnabled: false, statusWebhookUrl: null, provider: 'sandbox', providerSenderRef: null, providerAccountRef: null,
    sealedCredentials: null, now,
  }))!;
  const c = await conversations.lockOrCreate({ userId: user, senderId: sender.id, customerPhone: '+14155551234', uuid: randomUUID(), now });
  const { messageId } = await new TypeormChatappMessageRepository(db).record({
    userId: user, conversationId: c.id, senderId: sender.id, direction: 'inbound', source: 'customer', type: 'media', body: null,
    media: { url: null, mediaType: 'image', filename: null }, templateId: null, from: '+14155551234', to: sender.phoneNumber,
    messageSid: `SM${randomUUID().replace(/-/g, '')}`, providerMessageId: null, status: 'received', cost: 0, fromAllowance: false, now,
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
  return { reservations: new TypeormSendReservationRepository(db), users: [await insertUser(db), await insertUser(db)] };
});
