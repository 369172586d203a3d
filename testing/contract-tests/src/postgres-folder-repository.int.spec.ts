import { TypeormAssistantRepository, TypeormFolderRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { FolderKind, folderRepositoryContract } from './folder-repository.contract';
import { insertUser, outboxOf } from './postgres-fixtures';

const database = useTestDatabase();

for (const kind of ['folders', 'labels'] as const satisfies readonly FolderKind[]) {
  folderRepositoryContract('PostgreSQL', kind, async () => {
    const db = database();
    return {
      folders: new TypeormFolderRepository(db, kind),
      assistants: new TypeormAssistantRepository(db, outboxOf(db, { now: () => new Date() })),
      users: [await insertUser(db), await insertUser(db)],
    };
  });
}
