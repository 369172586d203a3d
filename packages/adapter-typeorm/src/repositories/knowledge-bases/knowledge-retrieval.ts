import { Passage } from '@voiceplane/domain';
import { KnowledgeRetrieval } from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';

/**
 * Full-text retrieval in PostgreSQL. The question is stemmed in each passage's own language and its
 * words are OR-ed, so a passage that shares most words with a spoken question ranks first without
 * having to contain all of them (a customer's turn is rarely phrased like the document).
 */
export class PostgresKnowledgeRetrieval implements KnowledgeRetrieval {
  constructor(private readonly db: Database) {}

  async search(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]> {
    const rows = await this.db.query(
      `SELECT c.document_id, d.name AS document_name, c.position, c.content, ts_rank_cd(c.tsv, q.query, 1) AS score
       FROM knowledge_base_chunks c
       JOIN knowledge_base_documents d ON d.id = c.document_id AND d.user_id = $1
       CROSS JOIN LATERAL (
         SELECT to_tsquery('simple', COALESCE(string_agg(quote_literal(t.lexeme), ' | '), '')) AS query
         FROM unnest(to_tsvector(c.ts_config::regconfig, $3)) AS t
       ) q
       WHERE c.knowledge_base_id = $2 AND c.tsv @@ q.query
       ORDER BY score DESC, c.document_id, c.position
       LIMIT $4`,
      [userId, knowledgeBaseId, question, limit],
    );
    return rows.map((r) => ({
      documentId: num(r.document_id), documentName: r.document_name as string, position: num(r.position),
      content: r.content as string, score: Number(r.score),
    }));
  }
}
