export { KnowledgeBaseController, knowledgeBaseRouteDocs } from './knowledge-base-controller';
