import { InMemoryKnowledgeBases, ManualClock } from '@voiceplane/adapter-fakes';
import { knowledgeBasesContract } from './knowledge-bases.contract';

let users = 0;
knowledgeBasesContract('in-memory', async (embeddings) => {
  const store = new InMemoryKnowledgeBases(new ManualClock(new Date('2026-11-26T10:00:00Z')), embeddings);
  return {
    knowledgeBases: store.knowledgeBaseRepository,
    documents: store.documentRepository,
    retrieval: store.retrieval,
    passageEmbeddings: store.passageEmbeddings,
    embeddings,
    newUser: async () => ++users,
  };
});
