import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passage embeddings, for ranking by meaning beside full text when an embeddings model is
 * configured. Stored as `real[]` on every server, so the schema is the same with and without the
 * pgvector extension (this project's PostgreSQL servers do not all have it): cosine similarity is
 * computed in SQL over the passages of the one knowledge base searched. Moving the column to
 * pgvector's `vector` type and an HNSW index is a later migration where every server has the extension.
 */
export class KnowledgeEmbeddings1795850001000 implements MigrationInterface {
  name = 'KnowledgeEmbeddings1795850001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_base_chunks ADD COLUMN embedding real[] NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_base_chunks DROP COLUMN embedding`);
  }
}
