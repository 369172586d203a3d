import { InMemorySigningSecretRepository, InMemoryUnitOfWork, InMemoryWebhookDeliveryRepository, ManualClock } from '@voiceplane/adapter-fakes';
import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';

webhookDeliveryRepositoryContract('in-memory', async () => {
  const secrets = new InMemorySigningSecretRepository(new ManualClock(new Date('2030-04-01T09:00:00.000Z')));
  return { deliveries: new InMemoryWebhookDeliveryRepository(secrets), secrets, uow: new InMemoryUnitOfWork(), users: [1, 2] };
});
