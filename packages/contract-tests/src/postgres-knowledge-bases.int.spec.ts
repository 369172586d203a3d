import { PostgresKnowledgeRetrieval, TypeormKnowledgeBaseRepository, TypeormKnowledgeDocumentRepository } from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { knowledgeBasesContract } from './knowledge-bases.contract';
import { insertUser } from './postgres-fixtures';

const database = useTestDatabase();

knowledgeBasesContract('PostgreSQL', async (embeddings) => ({
  knowledgeBases: new TypeormKnowledgeBaseRepository(database()),
  documents: new TypeormKnowledgeDocumentRepository(database()),
  retrieval: new PostgresKnowledgeRetrieval(database(), embeddings),
  embeddings,
  newUser: () => insertUser(database()),
}));
