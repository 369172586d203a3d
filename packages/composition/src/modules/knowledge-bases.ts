import {
  BackfillEmbeddings,
  backfillEmbeddingsJob,
  ManageKnowledgeBases,
  KnowledgeLookup,
  ProcessDocument,
  processDocumentJob,
  TOKENS,
} from '@voiceplane/application';
import { KnowledgeBaseController } from '@voiceplane/adapter-http';
import {
  PostgresKnowledgeRetrieval,
  TypeormKnowledgeBaseRepository,
  TypeormKnowledgeDocumentRepository,
  TypeormPassageEmbeddings,
} from '@voiceplane/adapter-typeorm';
import { DEFAULT_CRAWL, ExtractingDocumentReader, ReadingThread } from '@voiceplane/adapter-documents';
import { OpenAiEmbeddings } from '@voiceplane/adapter-openai';
import { VERSION } from '../version';
import { ApiModule, BackgroundTask } from './module';

/** Knowledge bases: documents read by workers through the job queue, passages searched in PostgreSQL. */
export const knowledgeBasesModule: ApiModule = ({ container: c, config, database }) => {
  const single = <T>(token: symbol & (abstract new (...args: never) => T), make: () => T) =>
    c.bind(token).toDynamicValue(make).inSingletonScope();
  c.bind(TOKENS.KnowledgeBaseRepository).toConstantValue(new TypeormKnowledgeBaseRepository(database));
  c.bind(TOKENS.KnowledgeDocumentRepository).toConstantValue(new TypeormKnowledgeDocumentRepository(database));
  // With EMBEDDINGS_MODEL the worker embeds passages and searches fuse full text with similarity.
  const embeddings = config.embeddings ? new OpenAiEmbeddings(config.embeddings) : null;
  c.bind(TOKENS.KnowledgeRetrieval).toConstantValue(new PostgresKnowledgeRetrieval(database, embeddings));
  // Searches made for answers are logged on the call or conversation (the tools module binds the log).
  single(
    TOKENS.KnowledgeLookup,
    () =>
      new KnowledgeLookup(
        c.get(TOKENS.KnowledgeRetrieval),
        c.get(TOKENS.ToolInvocationLog),
        c.get(TOKENS.Ids),
        c.get(TOKENS.Clock),
      ),
  );
  // Documents are read on a thread of their own (started on the first document), never on the event loop.
  const reading = new ReadingThread();
  single(
    TOKENS.DocumentReader,
    () =>
      new ExtractingDocumentReader(c.get(TOKENS.OutboundHttpClient), reading, {
        ...DEFAULT_CRAWL,
        userAgent: `voiceplane/${VERSION}`,
      }),
  );
  single(
    TOKENS.ManageKnowledgeBases,
    () =>
      new ManageKnowledgeBases(
        c.get(TOKENS.UnitOfWork),
        c.get(TOKENS.UserRepository),
        c.get(TOKENS.KnowledgeBaseRepository),
        c.get(TOKENS.KnowledgeDocumentRepository),
        c.get(TOKENS.JobScheduler),
        c.get(TOKENS.Clock),
      ),
  );
  single(
    TOKENS.ProcessDocument,
    () =>
      new ProcessDocument({
        documents: c.get(TOKENS.KnowledgeDocumentRepository),
        knowledgeBases: c.get(TOKENS.KnowledgeBaseRepository),
        users: c.get(TOKENS.UserRepository),
        uow: c.get(TOKENS.UnitOfWork),
        reader: c.get(TOKENS.DocumentReader),
        jobs: c.get(TOKENS.JobScheduler),
        clock: c.get(TOKENS.Clock),
        embeddings,
      }),
  );
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => processDocumentJob(() => c.get(TOKENS.ProcessDocument)))
    .inSingletonScope();
  c.bind(KnowledgeBaseController).toSelf().inSingletonScope();
  // Stopped after the job runner (modules stop in reverse order): the jobs in hand finish reading first.
  const readingThread: BackgroundTask = { name: 'document-reading', async start() {}, stop: () => reading.close() };
  if (embeddings === null) return { background: [readingThread] };

  // Passages stored before this model was configured (or embedded by another) are embedded by a
  // job that each start schedules: it finds nothing to do once they all are.
  c.bind(TOKENS.PassageEmbeddings).toConstantValue(new TypeormPassageEmbeddings(database));
  single(
    TOKENS.BackfillEmbeddings,
    () =>
      new BackfillEmbeddings(
        c.get(TOKENS.PassageEmbeddings),
        embeddings,
        c.get(TOKENS.JobScheduler),
        c.get(TOKENS.Clock),
      ),
  );
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => backfillEmbeddingsJob(() => c.get(TOKENS.BackfillEmbeddings)))
    .inSingletonScope();
  const backfill: BackgroundTask = {
    name: 'knowledge-embeddings-backfill',
    start: () => c.get(TOKENS.BackfillEmbeddings).schedule(),
    async stop() {},
  };
  return { background: [readingThread, backfill] };
};
