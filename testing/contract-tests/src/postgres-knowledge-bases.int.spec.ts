import {
  nearestNeighbourMode,
  PostgresKnowledgeRetrieval,
  TypeormKnowledgeBaseRepository,
  TypeormKnowledgeDocumentRepository,
  TypeormPassageEmbeddings,
} from '@voiceplane/adapter-typeorm';
import { useTestDatabase } from '@voiceplane/test-env';
import { knowledgeBasesContract } from './knowledge-bases.contract';
import { insertUser } from './postgres-fixtures';

/**
 * The server DATABASE_URL names (PGlite without it): pgvector where the server has the extension,
 * else the `real[]` fallback. embedded-knowledge-bases.int.spec.ts runs the same contract on PGlite with pgvector.
 */
const database = useTestDatabase();

knowledgeBasesContract('PostgreSQL', async (embeddings) => ({
  knowledgeBases: new TypeormKnowledgeBaseRepository(database()),
  documents: new TypeormKnowledgeDocumentRepository(database()),
  retrieval: new PostgresKnowledgeRetrieval(database(), embeddings),
  passageEmbeddings: new TypeormPassageEmbeddings(database()),
  embeddings,
  newUser: () => insertUser(database()),
}));

describe('nearest-neighbour mode on this server', () => {
  it('is pgvector exactly when the server offers the extension', async () => {
    const [available] = await database().query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    expect(await nearestNeighbourMode(database())).toBe(available ? 'pgvector' : 'real[]');
  });
});
