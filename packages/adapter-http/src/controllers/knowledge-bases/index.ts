export { KnowledgeBaseController, knowledgeBaseRouteDocs } from './knowledge-base-controller';
export { RuntimeKnowledgeController, runtimeKnowledgeRouteDocs } from './runtime-knowledge-controller';
