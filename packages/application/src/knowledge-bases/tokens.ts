import { token } from '../common';
import type { ManageKnowledgeBases } from './manage-knowledge-bases';
import type { ProcessDocument } from './process-document';
import type { BackfillEmbeddings } from './backfill-embeddings';
import type { KnowledgeLookup } from './knowledge-lookup';
import type { SearchKnowledgeForCall } from './search-knowledge-for-call';
import type { DocumentReader, KnowledgeDocumentRepository, KnowledgeRetrieval, PassageEmbeddings } from './ports';

export const KNOWLEDGE_BASE_TOKENS = {
  KnowledgeDocumentRepository: token<KnowledgeDocumentRepository>('KnowledgeDocumentRepository'),
  KnowledgeRetrieval: token<KnowledgeRetrieval>('KnowledgeRetrieval'),
  DocumentReader: token<DocumentReader>('DocumentReader'),
  ManageKnowledgeBases: token<ManageKnowledgeBases>('ManageKnowledgeBases'),
  ProcessDocument: token<ProcessDocument>('ProcessDocument'),
  PassageEmbeddings: token<PassageEmbeddings>('PassageEmbeddings'),
  BackfillEmbeddings: token<BackfillEmbeddings>('BackfillEmbeddings'),
  KnowledgeLookup: token<KnowledgeLookup>('KnowledgeLookup'),
  SearchKnowledgeForCall: token<SearchKnowledgeForCall>('SearchKnowledgeForCall'),
} as const;
