import { PassageEmbeddings, UnembeddedPassage } from '@voiceplane/application';
import { Database } from '../../database';
import { KnowledgeBaseChunkRecord } from '../../records';
import { num } from '../rows';
import { ensureNearestNeighbourIndex } from './vector-search';

/** Passages a model has not embedded, and their vectors once it has: the backfill job's store. */
export class TypeormPassageEmbeddings implements PassageEmbeddings {
  constructor(private readonly db: Database) {}

  /** Walks the primary key from `afterId`, so each batch reads only the rows after the last one. */
  async unembedded(model: string, afterId: number, limit: number): Promise<UnembeddedPassage[]> {
    const rows = await this.db.query<Pick<KnowledgeBaseChunkRecord, 'id' | 'content'>>(
      `SELECT id, content FROM knowledge_base_chunks WHERE id > $1 AND embedding_model IS DISTINCT FROM $2 ORDER BY id LIMIT $3`,
      [afterId, model, limit],
    );
    return rows.map((r) => ({ id: num(r.id), content: r.content }));
  }

  async store(
    model: string,
    vectors: readonly { readonly id: number; readonly vector: readonly number[] }[],
  ): Promise<void> {
    if (vectors.length === 0) return;
    await ensureNearestNeighbourIndex(this.db, model, vectors[0].vector.length);
    await this.db.query(
      `UPDATE knowledge_base_chunks c SET embedding = ARRAY(SELECT e.v::real FROM jsonb_array_elements_text(v.vector) WITH ORDINALITY AS e(v, i) ORDER BY e.i), embedding_model = $1
       FROM jsonb_to_recordset($2::jsonb) AS v(id bigint, vector jsonb)
       WHERE c.id = v.id`,
      [model, JSON.stringify(vectors.map(({ id, vector }) => ({ id, vector })))],
    );
  }
}
