import { TypeormCallPermissionRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { callPermissionRepositoryContract } from './call-permission-repository.contract';

const database = useTestDatabase();

callPermissionRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM chatapp_call_permissions');
  return {
    permissions: new TypeormCallPermissionRepository(db),
    stored: async (senderId, phone) =>
      (await db.one('SELECT 1 FROM chatapp_call_permissions WHERE sender_id = $1 AND customer_phone = $2', [
        senderId,
        phone,
      ])) !== null,
  };
});
