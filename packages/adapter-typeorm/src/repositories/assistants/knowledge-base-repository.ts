import { KnowledgeBase, KnowledgeBaseStatus } from '@voiceplane/domain';
import { KnowledgeBaseRepository } from '@voiceplane/application';
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
}
