import {
  InMemoryJobStore,
  InMemoryOutbox,
  InMemorySigningSecretRepository,
  InMemoryUnitOfWork,
  InMemoryWebhookDeliveryRepository,
  ManualClock,
} from '@voiceplane/adapter-fakes';
import { webhookDeliveryRepositoryContract } from './webhook-delivery-repository.contract';

webhookDeliveryRepositoryContract('in-memory', async () => {
  const secrets = new InMemorySigningSecretRepository(new ManualClock(new Date('2030-04-01T09:00:00.000Z')));
  const outbox = new InMemoryOutbox();
  const jobs = new InMemoryJobStore();
  return {
    deliveries: new InMemoryWebhookDeliveryRepository(secrets, outbox, jobs),
    secrets,
    uow: new InMemoryUnitOfWork(),
    users: [1, 2],
    events: async () => outbox.events().map(({ topic, payload }) => ({ topic, payload })),
    jobs: async () => jobs.jobs(),
  };
});
