import { DocumentSource, DocumentStatus, KnowledgeBaseDocument, textSearchConfigOf } from '@voiceplane/domain';
import {
  DocumentToProcess,
  KnowledgeBaseChanges,
  KnowledgeDocumentRepository,
  NewDocument,
  ProcessingOutcome,
} from '@voiceplane/application';
import { Database } from '../../database';
import type { KnowledgeBaseDocumentRecord } from '../../records';
import { num } from '../rows';
import { refreshKnowledgeBase } from './knowledge-base-repository';
import { ensureNearestNeighbourIndex } from './vector-search';

const COLUMNS = `d.id, d.knowledge_base_id, d.user_id, d.name, d.description, d.type, d.source, d.language, d.status,
  d.failure_reason, d.size_bytes, d.chunks_count, d.created_at, d.updated_at`;

/** COLUMNS and `d.content`: every column of the document but its file. */
type DocumentRow = Omit<KnowledgeBaseDocumentRecord, 'file'>;

/** The `source` document: what a website or file document needs besides `content` and `file`, which have their own columns. */
interface StoredSource {
  url?: string | null;
  links?: readonly string[];
  relative_links_limit?: number;
  file_name?: string;
  kind?: string;
}

function sourceOf(r: DocumentRow): DocumentSource {
  const stored = r.source as StoredSource;
  switch (r.type) {
    case 'text':
      return { type: 'text', content: r.content ?? '' };
    case 'website':
      return {
        type: 'website',
        url: (stored.url as string | null) ?? null,
        links: (stored.links as string[]) ?? [],
        relativeLinksLimit: num(stored.relative_links_limit),
      };
    default:
      return { type: 'file', fileName: stored.file_name as string, kind: stored.kind as never };
  }
}

function storedSource(source: DocumentSource): StoredSource {
  switch (source.type) {
    case 'text':
      return {};
    case 'website':
      return { url: source.url, links: source.links, relative_links_limit: source.relativeLinksLimit };
    case 'file':
      return { file_name: source.fileName, kind: source.kind };
  }
}

function asDocument(r: DocumentRow): KnowledgeBaseDocument {
  return {
    id: num(r.id),
    knowledgeBaseId: num(r.knowledge_base_id),
    userId: num(r.user_id),
    name: r.name,
    description: r.description ?? null,
    source: sourceOf(r),
    language: r.language,
    status: r.status as DocumentStatus,
    failureReason: r.failure_reason ?? null,
    sizeBytes: num(r.size_bytes),
    chunksCount: num(r.chunks_count),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** Passages stored per statement. */
const INSERT_BATCH = 1_000;

export class TypeormKnowledgeDocumentRepository implements KnowledgeDocumentRepository {
  constructor(private readonly db: Database) {}

  async add(userId: number, knowledgeBaseId: number, document: NewDocument): Promise<KnowledgeBaseDocument | null> {
    return this.db.transaction(async () => {
      const rows = await this.db.query<DocumentRow>(
        `INSERT INTO knowledge_base_documents AS d (knowledge_base_id, user_id, name, description, type, source, content, file, language, status, size_bytes)
         SELECT k.id, k.user_id, $3, $4, $5, $6, $7, $8, $9, 'processing', $10 FROM knowledge_bases k WHERE k.id = $2 AND k.user_id = $1
         RETURNING ${COLUMNS}, d.content`,
        [
          userId,
          knowledgeBaseId,
          document.name,
          document.description,
          document.source.type,
          JSON.stringify(storedSource(document.source)),
          document.source.type === 'text' ? document.source.content : null,
          document.file ? Buffer.from(document.file) : null,
          document.language,
          document.sizeBytes,
        ],
      );
      if (!rows[0]) return null;
      await refreshKnowledgeBase(this.db, knowledgeBaseId);
      return asDocument(rows[0]);
    });
  }

  async list(userId: number, knowledgeBaseId: number): Promise<KnowledgeBaseDocument[] | null> {
    const owned = await this.db.one<{ found: number }>(
      `SELECT 1 AS found FROM knowledge_bases WHERE id = $1 AND user_id = $2`,
      [knowledgeBaseId, userId],
    );
    if (!owned) return null;
    const rows = await this.db.query<DocumentRow>(
      `SELECT ${COLUMNS}, d.content FROM knowledge_base_documents d WHERE d.knowledge_base_id = $1 ORDER BY d.id`,
      [knowledgeBaseId],
    );
    return rows.map(asDocument);
  }

  async find(userId: number, knowledgeBaseId: number, documentId: number): Promise<KnowledgeBaseDocument | null> {
    const r = await this.db.one<DocumentRow>(
      `SELECT ${COLUMNS}, d.content FROM knowledge_base_documents d WHERE d.user_id = $1 AND d.knowledge_base_id = $2 AND d.id = $3`,
      [userId, knowledgeBaseId, documentId],
    );
    return r ? asDocument(r) : null;
  }

  async rename(
    userId: number,
    knowledgeBaseId: number,
    documentId: number,
    changes: KnowledgeBaseChanges,
  ): Promise<KnowledgeBaseDocument | null> {
    const rows = await this.db.query<DocumentRow>(
      `UPDATE knowledge_base_documents AS d SET name = COALESCE($4::varchar, d.name),
         description = CASE WHEN $5::boolean THEN $6::varchar ELSE d.description END, updated_at = now()
       WHERE d.user_id = $1 AND d.knowledge_base_id = $2 AND d.id = $3 RETURNING ${COLUMNS}, d.content`,
      [
        userId,
        knowledgeBaseId,
        documentId,
        changes.name ?? null,
        changes.description !== undefined,
        changes.description ?? null,
      ],
    );
    return rows[0] ? asDocument(rows[0]) : null;
  }

  async delete(userId: number, knowledgeBaseId: number, documentId: number): Promise<boolean> {
    return this.db.transaction(async () => {
      const gone = await this.db.query<Pick<KnowledgeBaseDocumentRecord, 'id'>>(
        `DELETE FROM knowledge_base_documents WHERE user_id = $1 AND knowledge_base_id = $2 AND id = $3 RETURNING id`,
        [userId, knowledgeBaseId, documentId],
      );
      if (gone.length === 0) return false;
      await refreshKnowledgeBase(this.db, knowledgeBaseId);
      return true;
    });
  }

  async forProcessing(documentId: number): Promise<DocumentToProcess | null> {
    const r = await this.db.one<KnowledgeBaseDocumentRecord>(
      `SELECT ${COLUMNS}, d.content, d.file FROM knowledge_base_documents d WHERE d.id = $1`,
      [documentId],
    );
    return r ? { document: asDocument(r), file: r.file ? new Uint8Array(r.file) : null } : null;
  }

  async finish(documentId: number, outcome: ProcessingOutcome): Promise<void> {
    await this.db.transaction(async () => {
      const doc = await this.db.one<{ knowledge_base_id: string; language: string }>(
        `SELECT knowledge_base_id, language FROM knowledge_base_documents WHERE id = $1 FOR UPDATE`,
        [documentId],
      );
      if (!doc) return;
      await this.db.query(`DELETE FROM knowledge_base_chunks WHERE document_id = $1`, [documentId]);
      if (outcome.status === 'ready') {
        const config = textSearchConfigOf(doc.language);
        const embeddings = outcome.embeddings;
        if (embeddings && embeddings.vectors.length > 0)
          await ensureNearestNeighbourIndex(this.db, embeddings.model, embeddings.vectors[0].length);
        // In batches: encoding one parameter of a whole document's passages would hold the event loop.
        for (let from = 0; from < outcome.passages.length; from += INSERT_BATCH) {
          const to = from + INSERT_BATCH;
          await this.db.query(
            `INSERT INTO knowledge_base_chunks (document_id, knowledge_base_id, position, content, ts_config, tsv, embedding, embedding_model)
             SELECT $1, $2, $7::int + p.position, p.content, $3::varchar, to_tsvector($3::varchar::regconfig, p.content),
                    CASE WHEN $5::jsonb IS NULL THEN NULL ELSE ARRAY(SELECT e.v::real FROM jsonb_array_elements_text($5::jsonb -> (p.position::int - 1)) WITH ORDINALITY AS e(v, i) ORDER BY e.i) END,
                    $6::varchar
             FROM unnest($4::text[]) WITH ORDINALITY AS p(content, position)`,
            [
              documentId,
              doc.knowledge_base_id,
              config,
              outcome.passages.slice(from, to),
              embeddings === undefined ? null : JSON.stringify(embeddings.vectors.slice(from, to)),
              embeddings?.model ?? null,
              from,
            ],
          );
        }
        await this.db.query(
          `UPDATE knowledge_base_documents SET status = 'ready', failure_reason = NULL, chunks_count = $2, size_bytes = $3, updated_at = now() WHERE id = $1`,
          [documentId, outcome.passages.length, outcome.sizeBytes],
        );
      } else {
        await this.db.query(
          `UPDATE knowledge_base_documents SET status = 'failed', failure_reason = $2, chunks_count = 0, updated_at = now() WHERE id = $1`,
          [documentId, outcome.reason.slice(0, 1000)],
        );
      }
      await refreshKnowledgeBase(this.db, doc.knowledge_base_id);
    });
  }
}
