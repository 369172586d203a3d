import { PostgresKnowledgeRetrieval, TypeormKnowledgeBaseRepository, TypeormKnowledgeDocumentRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { knowledgeBasesContract } from './knowledge-bases.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

knowledgeBasesContract('PostgreSQL', async () => ({
  knowledgeBases: new TypeormKnowledgeBaseRepository(database()),
  documents: new TypeormKnowledgeDocumentRepository(database()),
  retrieval: new PostgresKnowledgeRetrieval(database()),
  newUser: () => insertUser(database()),
}));
