import { TypeormEventTypeRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { eventTypeRepositoryContract } from './event-type-repository.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

eventTypeRepositoryContract('PostgreSQL', async () => ({
  eventTypes: new TypeormEventTypeRepository(database()),
  users: [await insertUser(database()), await insertUser(database())],
}));
