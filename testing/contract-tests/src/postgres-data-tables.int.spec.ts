import { TypeormDataTableRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { dataTablesContract } from './data-tables.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

dataTablesContract('PostgreSQL', async () => ({
  tables: new TypeormDataTableRepository(database()),
  newUser: () => insertUser(database()),
}));
