import { TypeormSigningSecretRepository, TypeormWebhookDeliveryRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

webhookDeliveryRepositoryContract('PostgreSQL', async () => {
  const db = database();
  await db.query('DELETE FROM webhook_deliveries');
  return {
    deliveries: new TypeormWebhookDeliveryRepository(db), secrets: new TypeormSigningSecretRepository(db), uow: db,
    users: [await insertUser(db), await insertUser(db)],
  };
});
