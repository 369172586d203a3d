export { KnowledgeBaseController } from './knowledge-base-controller';
export { RuntimeKnowledgeController } from './runtime-knowledge-controller';
