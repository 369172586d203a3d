import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Nearest-neighbour search with pgvector where the server has it, and the model that embedded each
 * passage. The schema is the same either way: vectors stay in `embedding real[]`; with the extension
 * the searches cast them to `vector` and use its operators, and an HNSW index is made per model
 * (partial, on the cast to that model's length) when a model first stores vectors — a model's length
 * is known only then, and `vector` without a length cannot be indexed. Without the extension (the
 * extension is not installable, or the role may not create it) the similarity is computed over
 * `real[]` as before. Which one a server uses is read from `pg_extension`: installing pgvector later
 * and running `CREATE EXTENSION vector` in the database turns it on at the next start.
 *
 * Vectors stored before this migration have no model: the backfill job embeds them again with the
 * configured model, as it embeds passages stored before any model was configured.
 */
export class KnowledgeVectorSearch1795890000000 implements MigrationInterface {
  name = 'KnowledgeVectorSearch1795890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE knowledge_base_chunks ADD COLUMN embedding_model varchar(200) NULL`);
    const [available] = await q.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    if (!available) return;
    // A role that may not create extensions must not stop the migration: the fallback serves.
    await q.query(`SAVEPOINT knowledge_vector`);
    try {
      await q.query(`CREATE EXTENSION IF NOT EXISTS vector`);
      await q.query(`RELEASE SAVEPOINT knowledge_vector`);
    } catch {
      await q.query(`ROLLBACK TO SAVEPOINT knowledge_vector`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const indexes: { name: string }[] = await q.query(
      `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'knowledge_base_chunks' AND indexname LIKE 'knowledge_base_chunks_nn_%'`,
    );
    for (const { name } of indexes) await q.query(`DROP INDEX IF EXISTS "${name}"`);
    await q.query(`ALTER TABLE knowledge_base_chunks DROP COLUMN embedding_model`);
    // The extension is left: other schemas of the database may use it.
  }
}
