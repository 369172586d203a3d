import { fuseRankings, MIN_SIMILARITY, Passage, RANKING_CANDIDATES } from '@voiceplane/domain';
import { KnowledgeRetrieval, TextEmbeddings } from '@voiceplane/application';
import { Database } from '../../database';
import type { KnowledgeBaseChunkRecord } from '../../records';
import { num } from '../rows';

/** A ranked passage: the chunk, its document's name and its score (real or double precision: a number). */
type PassageRow = Pick<KnowledgeBaseChunkRecord, 'document_id' | 'position' | 'content'> & { document_name: string; score: number };

const toPassage = (r: PassageRow): Passage => ({
  documentId: num(r.document_id), documentName: r.document_name, position: num(r.position),
  content: r.content, score: Number(r.score),
});

/**
 * Retrieval in PostgreSQL. Full text: the question is stemmed in each passage's own language and
 * its words are OR-ed, so a passage that shares most words with a spoken question ranks first
 * without having to contain all of them (a customer's turn is rarely phrased like the document).
 * With an embeddings model the question is embedded too, the knowledge base's passages are ranked
 * by cosine similarity (computed in SQL over `real[]`: no extension needed), and both rankings are
 * fused by reciprocal rank, so a passage that says the same in other words is still found.
 */
export class PostgresKnowledgeRetrieval implements KnowledgeRetrieval {
  constructor(private readonly db: Database, private readonly embeddings: TextEmbeddings | null = null) {}

  async search(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]> {
    if (this.embeddings === null) return this.fullText(userId, knowledgeBaseId, question, limit);
    const [[vector], byText] = await Promise.all([this.embeddings.embed([question]), this.fullText(userId, knowledgeBaseId, question, RANKING_CANDIDATES)]);
    return fuseRankings([byText, await this.nearest(userId, knowledgeBaseId, vector, RANKING_CANDIDATES)], limit);
  }

  private async fullText(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]> {
    const rows = await this.db.query<PassageRow>(
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
    return rows.map(toPassage);
  }

  /** The passages most similar to `vector`; a passage embedded by another model (other length) is never similar. */
  private async nearest(userId: number, knowledgeBaseId: number, vector: readonly number[], limit: number): Promise<Passage[]> {
    const rows = await this.db.query<PassageRow>(
      `SELECT * FROM (
         SELECT c.document_id, d.name AS document_name, c.position, c.content,
                CASE WHEN cardinality(c.embedding) <> cardinality($3::real[]) THEN 0 ELSE (
                  SELECT COALESCE(sum(a * b) / NULLIF(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0), 0)
                  FROM unnest(c.embedding, $3::real[]) AS u(a, b)
                ) END AS score
         FROM knowledge_base_chunks c
         JOIN knowledge_base_documents d ON d.id = c.document_id AND d.user_id = $1
         WHERE c.knowledge_base_id = $2 AND c.embedding IS NOT NULL
       ) s
       WHERE s.score >= $4
       ORDER BY s.score DESC, s.document_id, s.position
       LIMIT $5`,
      [userId, knowledgeBaseId, vector, MIN_SIMILARITY, limit],
    );
    return rows.map(toPassage);
  }
}
