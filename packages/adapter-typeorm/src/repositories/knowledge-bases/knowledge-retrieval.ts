import { fuseRankings, MIN_SIMILARITY, Passage, RANKING_CANDIDATES } from '@voiceplane/domain';
import { KnowledgeRetrieval, TextEmbeddings } from '@voiceplane/application';
import { Database } from '../../database';
import { poolOf } from '../../data-source';
import { num } from '../rows';
import { nearestNeighbourMode, usesIterativeScan, vectorsOf } from './vector-search';

/** A ranked passage: the chunk's columns, its document's name and the computed score. */
interface RankedRow {
  document_id: string;
  document_name: string;
  position: number;
  content: string;
  score: number | string;
}

const toPassage = (r: RankedRow): Passage => ({
  documentId: num(r.document_id),
  documentName: r.document_name,
  position: num(r.position),
  content: r.content,
  score: Number(r.score),
});

/**
 * Retrieval in PostgreSQL. Full text: the question is stemmed in each passage's own language and
 * its words are OR-ed, so a passage that shares most words with a spoken question ranks first
 * without having to contain all of them (a customer's turn is rarely phrased like the document).
 * With an embeddings model the question is embedded too, the knowledge base's passages embedded by
 * the same model are ranked by cosine similarity — with pgvector where the database has it (HNSW
 * index per model), else computed in SQL over `real[]` — and both rankings are fused by reciprocal
 * rank, so a passage that says the same in other words is still found. Both ways rank alike.
 */
export class PostgresKnowledgeRetrieval implements KnowledgeRetrieval {
  constructor(
    private readonly db: Database,
    private readonly embeddings: TextEmbeddings | null = null,
  ) {}

  async search(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]> {
    if (this.embeddings === null) return this.fullText(userId, knowledgeBaseId, question, limit);
    const [[vector], byText] = await Promise.all([
      this.embeddings.embed([question]),
      this.fullText(userId, knowledgeBaseId, question, RANKING_CANDIDATES),
    ]);
    const nearest =
      (await nearestNeighbourMode(this.db)) === 'pgvector' ? this.nearestByPgvector : this.nearestByArrays;
    return fuseRankings(
      [byText, await nearest.call(this, userId, knowledgeBaseId, this.embeddings.model, vector, RANKING_CANDIDATES)],
      limit,
    );
  }

  private async fullText(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]> {
    const rows = await this.db.query<RankedRow>(
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

  /** The passages most similar to `vector`; a passage embedded by another model is never compared. */
  private async nearestByArrays(
    userId: number,
    knowledgeBaseId: number,
    model: string,
    vector: readonly number[],
    limit: number,
  ): Promise<Passage[]> {
    const rows = await this.db.query<RankedRow>(
      `SELECT * FROM (
         SELECT c.document_id, d.name AS document_name, c.position, c.content,
                CASE WHEN cardinality(c.embedding) <> cardinality($3::real[]) THEN 0 ELSE (
                  SELECT COALESCE(sum(a * b) / NULLIF(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0), 0)
                  FROM unnest(c.embedding, $3::real[]) AS u(a, b)
                ) END AS score
         FROM knowledge_base_chunks c
         JOIN knowledge_base_documents d ON d.id = c.document_id AND d.user_id = $1
         WHERE c.knowledge_base_id = $2 AND c.embedding IS NOT NULL AND c.embedding_model = $6
       ) s
       WHERE s.score >= $4
       ORDER BY s.score DESC, s.document_id, s.position
       LIMIT $5`,
      [userId, knowledgeBaseId, vector, MIN_SIMILARITY, limit, model],
    );
    return rows.map(toPassage);
  }

  /**
   * The same with pgvector: cosine distance (`<=>`) on the vectors cast to the question's length,
   * written as the model's HNSW index is (see vector-search.ts) so the planner may use it. The
   * index scan's order is approximate; the outer query sorts exactly as the fallback does.
   */
  private async nearestByPgvector(
    userId: number,
    knowledgeBaseId: number,
    model: string,
    vector: readonly number[],
    limit: number,
  ): Promise<Passage[]> {
    const n = vector.length;
    const distance = `(c.embedding::vector(${n}) <=> $3::vector(${n}))`;
    const sql = `SELECT * FROM (
         SELECT c.document_id, d.name AS document_name, c.position, c.content, 1 - ${distance} AS score
         FROM knowledge_base_chunks c
         JOIN knowledge_base_documents d ON d.id = c.document_id AND d.user_id = $1
         WHERE c.knowledge_base_id = $2 AND ${vectorsOf('c', model, n)} AND ${distance} <= $4
         ORDER BY ${distance}
         LIMIT $5
       ) s
       ORDER BY s.score DESC, s.document_id, s.position`;
    const params = [userId, knowledgeBaseId, JSON.stringify(vector), 1 - MIN_SIMILARITY, limit];
    if (!(await usesIterativeScan(this.db))) return (await this.db.query<RankedRow>(sql, params)).map(toPassage);
    // The scan setting must reach the connection that searches: the transaction's, or one taken
    // from the pool for both statements (a transaction here would run a request's commit steps).
    if (this.db.inTransaction) {
      await this.db.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`);
      return (await this.db.query<RankedRow>(sql, params)).map(toPassage);
    }
    const client = await poolOf(this.db.dataSource).connect();
    try {
      await client.query(`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', false)`);
      return (await client.query<RankedRow>(sql, params)).rows.map(toPassage);
    } finally {
      client.release();
    }
  }
}
