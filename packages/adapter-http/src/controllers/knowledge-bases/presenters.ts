import { KnowledgeBase, KnowledgeBaseDocument } from '@voiceplane/domain';
import { iso } from '../../presenters/format';

export function presentKnowledgeBase(k: KnowledgeBase) {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    status: k.status,
    documents_count: k.documentsCount,
    assistants_count: k.assistantsCount,
    created_at: iso(k.createdAt),
    updated_at: iso(k.updatedAt),
  };
}

/** The fields the clients send come back under the same names; a text document's content is not echoed. */
export function presentDocument(d: KnowledgeBaseDocument) {
  const s = d.source;
  return {
    id: d.id,
    knowledgebase_id: d.knowledgeBaseId,
    name: d.name,
    description: d.description,
    type: s.type,
    url: s.type === 'website' ? s.url : null,
    links: s.type === 'website' ? s.links.map((link) => ({ link })) : [],
    relative_links_limit: s.type === 'website' ? s.relativeLinksLimit : null,
    file_name: s.type === 'file' ? s.fileName : null,
    language: d.language,
    status: d.status,
    failure_reason: d.failureReason,
    size_bytes: d.sizeBytes,
    chunks_count: d.chunksCount,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
  };
}
