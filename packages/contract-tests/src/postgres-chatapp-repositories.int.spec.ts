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
