import { PostgresChatappInbox } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { chatappInboxContract } from './chatapp-inbox.contract';

const database = useTestDatabase();

chatappInboxContract('PostgreSQL', async () => {
  await database().query('DELETE FROM chatapp_inbox_items');
  return new PostgresChatappInbox(database());
});
