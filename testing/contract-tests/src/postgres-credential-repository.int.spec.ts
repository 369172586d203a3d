import { TypeormCredentialRepository, TypeormUserRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { credentialRepositoryContract } from './credential-repository.contract';

const database = useTestDatabase();

credentialRepositoryContract('PostgreSQL', async () => ({
  users: new TypeormUserRepository(database()),
  credentials: new TypeormCredentialRepository(database()),
}));
