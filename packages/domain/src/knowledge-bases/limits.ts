import { Plan } from '../account/plan';

export const KNOWLEDGE_BASE_NAME_MAX = 255;
export const KNOWLEDGE_BASE_DESCRIPTION_MAX = 1000;
/** An uploaded file is refused above this, whatever room the plan has left. */
export const DOCUMENT_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_TEXT_MAX_CHARS = 1_000_000;
export const WEBSITE_LINKS_MAX = 100;

export type KnowledgeLimit = 'knowledge_bases' | 'documents' | 'bytes';

export type KnowledgeBaseRefusal =
  | 'not_found'
  | 'document_not_found'
  | { readonly code: 'limit_reached'; readonly limit: KnowledgeLimit; readonly max: number };

/** What the account holds now, across its knowledge bases. */
export interface KnowledgeUsage {
  readonly knowledgeBases: number;
  readonly documents: number;
  readonly bytes: number;
}

export function canCreateKnowledgeBase(plan: Plan, usage: KnowledgeUsage): KnowledgeBaseRefusal | null {
  return usage.knowledgeBases >= plan.max_knowledge_bases
    ? { code: 'limit_reached', limit: 'knowledge_bases', max: plan.max_knowledge_bases }
    : null;
}

export function canAddDocument(plan: Plan, usage: KnowledgeUsage, bytes: number): KnowledgeBaseRefusal | null {
  if (usage.documents >= plan.max_knowledge_base_documents)
    return { code: 'limit_reached', limit: 'documents', max: plan.max_knowledge_base_documents };
  if (usage.bytes + bytes > plan.max_knowledge_base_bytes)
    return { code: 'limit_reached', limit: 'bytes', max: plan.max_knowledge_base_bytes };
  return null;
}
