import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a knowledge base holds: documents (the text sent, the upload, or the website to read) and
 * the passages a worker cut them into, indexed for full-text search in the document's language.
 * Deleting a knowledge base or a document deletes its passages with it.
 */
export class KnowledgeBaseDocuments1795750000000 implements MigrationInterface {
  name = 'KnowledgeBaseDocuments1795750000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_base_documents (
        id bigserial PRIMARY KEY,
        knowledge_base_id bigint NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name varchar(255) NOT NULL,
        description varchar(1000) NULL,
        type varchar(16) NOT NULL CHECK (type IN ('text', 'website', 'file')),
        source jsonb NOT NULL,
        content text NULL,
        file bytea NULL,
        language varchar(8) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
        failure_reason varchar(1000) NULL,
        size_bytes bigint NOT NULL,
        chunks_count integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX knowledge_base_documents_kb_idx ON knowledge_base_documents (knowledge_base_id, id)`);
    await q.query(`CREATE INDEX knowledge_base_documents_user_idx ON knowledge_base_documents (user_id)`);
    await q.query(`
      CREATE TABLE knowledge_base_chunks (
        id bigserial PRIMARY KEY,
        document_id bigint NOT NULL REFERENCES knowledge_base_documents(id) ON DELETE CASCADE,
        knowledge_base_id bigint NOT NULL,
        position integer NOT NULL,
        content text NOT NULL,
        ts_config varchar(32) NOT NULL,
        tsv tsvector NOT NULL
      )`);
    await q.query(`CREATE INDEX knowledge_base_chunks_document_idx ON knowledge_base_chunks (document_id, position)`);
    await q.query(`CREATE INDEX knowledge_base_chunks_kb_idx ON knowledge_base_chunks (knowledge_base_id)`);
    await q.query(`CREATE INDEX knowledge_base_chunks_tsv_idx ON knowledge_base_chunks USING gin (tsv)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE knowledge_base_chunks`);
    await q.query(`DROP TABLE knowledge_base_documents`);
  }
}
