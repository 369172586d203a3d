import { KnowledgeBase, KnowledgeBaseStatus, KnowledgeUsage } from '@voiceplane/domain';
import { KnowledgeBaseChanges, KnowledgeBaseRepository } from '@voiceplane/application';
import { Database } from '../../database';
import type { KnowledgeBaseRecord } from '../../records';
import { num } from '../rows';

const COLUMNS = `k.id, k.user_id, k.name, k.description, k.status, k.documents_count, k.created_at, k.updated_at,
  (SELECT count(*) FROM assistants a WHERE a.knowledgebase_id = k.id) AS assistants_count`;

/** COLUMNS: every column of `knowledge_bases`, and how many assistants use it (count: bigint, a string). */
type KnowledgeBaseRow = KnowledgeBaseRecord & { assistants_count: string };

function toKnowledgeBase(r: KnowledgeBaseRow): KnowledgeBase {
  return {
    id: num(r.id),
    userId: num(r.user_id),
    name: r.name,
    description: r.description ?? null,
    status: r.status as KnowledgeBaseStatus,
    documentsCount: num(r.documents_count),
    assistantsCount: num(r.assistants_count),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * A knowledge base's status and document count follow its documents once it has any: processing
 * while one is, active when one is ready, failed when all failed. One without documents keeps the
 * status it was created with (operators may create one in any status).
 *
 * The knowledge base's row is locked by a statement of its own before the counting one: in READ
 * COMMITTED an UPDATE that waited for the row re-checks only that row and keeps the snapshot it
 * started with for its sub-select, so two documents added at once would each count only itself.
 * NO KEY UPDATE, because the caller's document insert holds KEY SHARE on the same row (its foreign
 * key) and FOR UPDATE would deadlock two concurrent adds.
 */
export async function refreshKnowledgeBase(db: Database, knowledgeBaseId: number | string): Promise<void> {
  await db.query(`SELECT 1 FROM knowledge_bases WHERE id = $1 FOR NO KEY UPDATE`, [knowledgeBaseId]);
  await db.query(
    `UPDATE knowledge_bases k SET documents_count = s.total, updated_at = now(),
       status = CASE WHEN s.total = 0 THEN k.status WHEN s.processing > 0 THEN 'processing' WHEN s.ready > 0 THEN 'active' ELSE 'failed' END
     FROM (SELECT count(*) AS total, count(*) FILTER (WHERE status = 'processing') AS processing, count(*) FILTER (WHERE status = 'ready') AS ready
           FROM knowledge_base_documents WHERE knowledge_base_id = $1) s
     WHERE k.id = $1`,
    [knowledgeBaseId],
  );
}

export class TypeormKnowledgeBaseRepository implements KnowledgeBaseRepository {
  constructor(private readonly db: Database) {}

  async create(
    userId: number,
    kb: { name: string; description: string | null; status: KnowledgeBaseStatus },
  ): Promise<KnowledgeBase> {
    const rows = await this.db.query<KnowledgeBaseRow>(
      `INSERT INTO knowledge_bases AS k (user_id, name, description, status) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [userId, kb.name, kb.description, kb.status],
    );
    return toKnowledgeBase(rows[0]);
  }

  async listOwned(userId: number): Promise<KnowledgeBase[]> {
    const rows = await this.db.query<KnowledgeBaseRow>(
      `SELECT ${COLUMNS} FROM knowledge_bases k WHERE k.user_id = $1 ORDER BY k.id DESC`,
      [userId],
    );
    return rows.map(toKnowledgeBase);
  }

  async findOwned(userId: number, id: number): Promise<KnowledgeBase | null> {
    const r = await this.db.one<KnowledgeBaseRow>(
      `SELECT ${COLUMNS} FROM knowledge_bases k WHERE k.user_id = $1 AND k.id = $2`,
      [userId, id],
    );
    return r ? toKnowledgeBase(r) : null;
  }

  async update(userId: number, id: number, changes: KnowledgeBaseChanges): Promise<KnowledgeBase | null> {
    const rows = await this.db.query<KnowledgeBaseRow>(
      `UPDATE knowledge_bases AS k SET name = COALESCE($3::varchar, k.name), description = CASE WHEN $4::boolean THEN $5::varchar ELSE k.description END, updated_at = now()
       WHERE k.user_id = $1 AND k.id = $2 RETURNING ${COLUMNS}`,
      [userId, id, changes.name ?? null, changes.description !== undefined, changes.description ?? null],
    );
    return rows[0] ? toKnowledgeBase(rows[0]) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (
      (
        await this.db.query<Pick<KnowledgeBaseRecord, 'id'>>(
          `DELETE FROM knowledge_bases WHERE user_id = $1 AND id = $2 RETURNING id`,
          [userId, id],
        )
      ).length > 0
    );
  }

  async usage(userId: number): Promise<KnowledgeUsage> {
    const r = await this.db.one<{ knowledge_bases: string; documents: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM knowledge_bases WHERE user_id = $1) AS knowledge_bases,
              count(d.id) AS documents, COALESCE(sum(d.size_bytes), 0) AS bytes
       FROM knowledge_base_documents d WHERE d.user_id = $1`,
      [userId],
    );
    return { knowledgeBases: num(r?.knowledge_bases), documents: num(r?.documents), bytes: num(r?.bytes) };
  }
}
