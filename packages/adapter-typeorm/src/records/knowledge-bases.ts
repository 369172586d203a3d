import {
  bigint,
  columnCheck,
  integer,
  jsonb,
  ownedByUser,
  references,
  serialKey,
  stampedNow,
  text,
  varchar,
} from './columns';
import { record } from './record';

/** Documents of knowledge bases and their searchable passages (migration KnowledgeBaseDocuments). */

export interface KnowledgeBaseDocumentRecord {
  id: string;
  knowledge_base_id: string;
  user_id: string;
  name: string;
  description: string | null;
  type: string;
  source: unknown;
  content: string | null;
  file: Buffer | null;
  language: string;
  status: string;
  failure_reason: string | null;
  size_bytes: string;
  chunks_count: number;
  created_at: Date;
  updated_at: Date;
}

export const knowledgeBaseDocuments = record<KnowledgeBaseDocumentRecord>({
  name: 'knowledge_base_documents',
  columns: {
    id: serialKey('knowledge_base_documents'),
    knowledge_base_id: bigint(),
    user_id: bigint(),
    name: varchar(255),
    description: varchar(1000, true),
    type: varchar(16),
    source: jsonb(),
    content: text(true),
    file: { type: 'bytea', nullable: true },
    language: varchar(8),
    status: varchar(16),
    failure_reason: varchar(1000, true),
    size_bytes: bigint(),
    chunks_count: { ...integer(), default: 0 },
    created_at: stampedNow(),
    updated_at: stampedNow(),
  },
  foreignKeys: [
    references('knowledge_base_documents', 'knowledge_base_id', 'knowledge_bases', 'CASCADE'),
    ownedByUser('knowledge_base_documents'),
  ],
  checks: [
    columnCheck('knowledge_base_documents', 'type', `type IN ('text', 'website', 'file')`),
    columnCheck('knowledge_base_documents', 'status', `status IN ('processing', 'ready', 'failed')`),
  ],
  indices: [
    { name: 'knowledge_base_documents_kb_idx', columns: ['knowledge_base_id', 'id'] },
    { name: 'knowledge_base_documents_user_idx', columns: ['user_id'] },
  ],
});

export interface KnowledgeBaseChunkRecord {
  id: string;
  document_id: string;
  knowledge_base_id: string;
  position: number;
  content: string;
  ts_config: string;
  tsv: string;
  /** The passage's embedding when a model is configured (see the KnowledgeEmbeddings migration). */
  embedding: number[] | null;
  /** The model that made `embedding` (migration KnowledgeVectorSearch); null before models were recorded. */
  embedding_model: string | null;
}

export const knowledgeBaseChunks = record<KnowledgeBaseChunkRecord>({
  name: 'knowledge_base_chunks',
  columns: {
    id: serialKey('knowledge_base_chunks'),
    document_id: bigint(),
    knowledge_base_id: bigint(),
    position: integer(),
    content: text(),
    ts_config: varchar(32),
    tsv: { type: 'tsvector' },
    embedding: { type: 'real', array: true, nullable: true },
    embedding_model: varchar(200, true),
  },
  foreignKeys: [references('knowledge_base_chunks', 'document_id', 'knowledge_base_documents', 'CASCADE')],
  indices: [
    { name: 'knowledge_base_chunks_document_idx', columns: ['document_id', 'position'] },
    { name: 'knowledge_base_chunks_kb_idx', columns: ['knowledge_base_id'] },
    // GIN: TypeORM cannot state the access method, so it leaves this index alone.
    { name: 'knowledge_base_chunks_tsv_idx', columns: ['tsv'], synchronize: false },
  ],
});

export const knowledgeBaseRecords = [knowledgeBaseDocuments, knowledgeBaseChunks];
