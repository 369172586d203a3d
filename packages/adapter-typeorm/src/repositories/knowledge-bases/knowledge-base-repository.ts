import { KnowledgeBase, KnowledgeBaseStatus, KnowledgeUsage } from '@voiceplane/domain';
import { KnowledgeBaseChanges, KnowledgeBaseRepository } from '@voiceplane/application';
import { Database } from '../../database';
import { num } from '../rows';

const COLUMNS = `k.id, k.user_id, k.name, k.description, k.status, k.documents_count, k.created_at, k.updated_at,
  (SELECT count(*) FROM assistants a WHERE a.knowledgebase_id = k.id) AS assistants_count`;

function toKnowledgeBase(r: Record<string, unknown>): KnowledgeBase {
  return {
    id: num(r.id), userId: num(r.user_id), name: r.name as string, description: (r.description as string | null) ?? null,
    status: r.status as KnowledgeBaseStatus, documentsCount: num(r.documents_count), assistantsCount: num(r.assistants_count),
    createdAt: new Date(r.created_at as string), updatedAt: new Date(r.updated_at as string),
  };
}

/**
 * A knowledge base's status and document count follow its documents once it has any: processing
 * while one is, active when one is ready, failed when all failed. One without documents keeps the
 * status it was created with (operators may create one in any status).
 */
export async function refreshKnowledgeBase(db: Database, knowledgeBaseId: number | string): Promise<void> {
  // Locked first, so the counts below are read after any other refresh of it has committed: the
  // UPDATE alone would wait for that one's row lock and then write counts read before it.
  await db.query(`SELECT 1 FROM knowledge_bases WHERE id = $1 FOR UPDATE`, [knowledgeBaseId]);
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

  async create(userId: number, kb: { name: string; description: string | null; status: KnowledgeBaseStatus }): Promise<KnowledgeBase> {
    const rows = await this.db.query(
      `INSERT INTO knowledge_bases AS k (user_id, name, description, status) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [userId, kb.name, kb.description, kb.status],
    );
    return toKnowledgeBase(rows[0]);
  }

  async listOwned(userId: number): Promise<KnowledgeBase[]> {
    const rows = await this.db.query(`SELECT ${COLUMNS} FROM knowledge_bases k WHERE k.user_id = $1 ORDER BY k.id DESC`, [userId]);
    return rows.map(toKnowledgeBase);
  }

  async findOwned(userId: number, id: number): Promise<KnowledgeBase | null> {
    const r = await this.db.one(`SELECT ${COLUMNS} FROM knowledge_bases k WHERE k.user_id = $1 AND k.id = $2`, [userId, id]);
    return r ? toKnowledgeBase(r) : null;
  }

  async update(userId: number, id: number, changes: KnowledgeBaseChanges): Promise<KnowledgeBase | null> {
    const rows = await this.db.query(
      `UPDATE knowledge_bases AS k SET name = COALESCE($3::varchar, k.name), description = CASE WHEN $4::boolean THEN $5::varchar ELSE k.description END, updated_at = now()
       WHERE k.user_id = $1 AND k.id = $2 RETURNING ${COLUMNS}`,
      [userId, id, changes.name ?? null, changes.description !== undefined, changes.description ?? null],
    );
    return rows[0] ? toKnowledgeBase(rows[0]) : null;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (await this.db.query(`DELETE FROM knowledge_bases WHERE user_id = $1 AND id = $2 RETURNING id`, [userId, id])).length > 0;
  }

  async usage(userId: number): Promise<KnowledgeUsage> {
    const r = await this.db.one(
      `SELECT (SELECT count(*) FROM knowledge_bases WHERE user_id = $1) AS knowledge_bases,
              count(d.id) AS documents, COALESCE(sum(d.size_bytes), 0) AS bytes
       FROM knowledge_base_documents d WHERE d.user_id = $1`,
      [userId],
    );
    return { knowledgeBases: num(r?.knowledge_bases), documents: num(r?.documents), bytes: num(r?.bytes) };
  }
}
