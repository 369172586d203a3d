export { TypeormKnowledgeBaseRepository } from './knowledge-base-repository';
export { TypeormKnowledgeDocumentRepository } from './document-repository';
export { PostgresKnowledgeRetrieval } from './knowledge-retrieval';
