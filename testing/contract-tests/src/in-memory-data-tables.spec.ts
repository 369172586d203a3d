import { InMemoryDataTableRepository } from '@voiceplane/adapter-fakes';
import { dataTablesContract } from './data-tables.contract';

let users = 0;
dataTablesContract('in-memory', async () => ({
  tables: new InMemoryDataTableRepository(),
  newUser: async () => ++users,
}));
