export { TypeormKnowledgeBaseRepository } from './knowledge-base-repository';
export { TypeormKnowledgeDocumentRepository } from './document-repository';
export { PostgresKnowledgeRetrieval } from './knowledge-retrieval';
export { TypeormPassageEmbeddings } from './passage-embeddings';
export { nearestNeighbourMode, type NearestNeighbourMode } from './vector-search';
