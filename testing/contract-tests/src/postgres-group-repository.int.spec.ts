import { TypeormAssistantRepository, TypeormGroupRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { GroupKind, groupRepositoryContract } from './group-repository.contract';
import { insertUser, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

for (const kind of ['folders', 'labels'] as const satisfies readonly GroupKind[]) {
  groupRepositoryContract('PostgreSQL', kind, async () => {
    const db = database();
    return {
      groups: new TypeormGroupRepository(db, kind),
      assistants: new TypeormAssistantRepository(db, outboxOf(db, { now: () => new Date() })),
      users: [await insertUser(db), await insertUser(db)],
    };
  });
}
