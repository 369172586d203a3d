import {
  nearestNeighbourMode,
  PostgresKnowledgeRetrieval,
  TypeormKnowledgeBaseRepository,
  TypeormKnowledgeDocumentRepository,
  TypeormPassageEmbeddings,
} from '@voiceplane/adapter-typeorm';
import { ConceptEmbeddings, SHOP_CONCEPTS } from '@voiceplane/adapter-fakes';
import { useTestDatabase } from '@voiceplane/test-env';
import { knowledgeBasesContract } from './knowledge-bases.contract';
import { insertUser } from './postgres-fixtures';

/** The knowledge-base contract on embedded PGlite, which ships pgvector: nearest neighbours by its operators and HNSW index. */
const database = useTestDatabase({ embedded: true });

knowledgeBasesContract('PGlite with pgvector', async (embeddings) => ({
  knowledgeBases: new TypeormKnowledgeBaseRepository(database()),
  documents: new TypeormKnowledgeDocumentRepository(database()),
  retrieval: new PostgresKnowledgeRetrieval(database(), embeddings),
  passageEmbeddings: new TypeormPassageEmbeddings(database()),
  embeddings,
  newUser: () => insertUser(database()),
}));

describe('pgvector on embedded PGlite', () => {
  it("is the mode, and a model's first vectors make its HNSW index, which the search can use", async () => {
    expect(await nearestNeighbourMode(database())).toBe('pgvector');
    const model = new ConceptEmbeddings(SHOP_CONCEPTS, 'index-check');
    const userId = await insertUser(database());
    const kb = await new TypeormKnowledgeBaseRepository(database()).create(userId, {
      name: 'Shop',
      description: null,
      status: 'empty',
    });
    const documents = new TypeormKnowledgeDocumentRepository(database());
    const doc = (await documents.add(userId, kb.id, {
      name: 'Refunds',
      description: null,
      source: { type: 'text', content: 'x' },
      language: 'en',
      sizeBytes: 1,
      file: null,
    }))!;
    await documents.finish(doc.id, {
      status: 'ready',
      passages: ['Refunds are paid back.'],
      sizeBytes: 1,
      embeddings: { model: model.model, vectors: await model.embed(['Refunds are paid back.']) },
    });
    const indexes = await database().query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'knowledge_base_chunks' AND indexdef LIKE '%''index-check''%'`,
    );
    expect(indexes.map((i) => i.indexdef)).toEqual([
      expect.stringMatching(
        /USING hnsw \(\(\(embedding\)::vector\(3\)\) vector_cosine_ops\) WHERE .*'index-check'.*cardinality\(embedding\) = 3/,
      ),
    ]);
    // Without sequential scans the planner must reach the passages through the index, which it can
    // only when the search states the index's predicate and expression the same way.
    await database().transaction(async () => {
      await database().query(`SET LOCAL enable_seqscan = off`);
      await database().query(`SET LOCAL enable_bitmapscan = off`);
      await database().query(`SET LOCAL enable_indexscan = on`);
      const plan = await database().query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT c.id FROM knowledge_base_chunks c WHERE c.embedding_model = 'index-check' AND cardinality(c.embedding) = 3
         ORDER BY (c.embedding::vector(3) <=> '[1,0,0]'::vector(3)) LIMIT 5`,
      );
      expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toMatch(/Index Scan using knowledge_base_chunks_nn_/);
    });
    const found = await new PostgresKnowledgeRetrieval(database(), model).search(userId, kb.id, 'money back', 5);
    expect(found.map((p) => p.documentId)).toEqual([doc.id]);
  });
});
