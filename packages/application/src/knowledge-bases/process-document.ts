import { canKeepDocument, documentFailureReason, DOCUMENT_PROCESSING_ATTEMPTS_MAX } from '@voiceplane/domain';
import { JobHandler, JobScheduler } from '../events';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { DocumentReader, KnowledgeBaseRepository, KnowledgeDocumentRepository, TextEmbeddings } from './ports';
import { embedInBatches } from './backfill-embeddings';
import { PROCESS_DOCUMENT_JOB, processDocumentJobFor } from './manage-knowledge-bases';

/**
 * Documents the reader may hold (one read, one waiting) before a job hands its document back: each read
 * may take up to its 20 s deadline, and a job that waited for more than that in memory would outlive its
 * lease (a minute) and be claimed again while it waits.
 */
export const READER_BACKLOG_MAX = 2;
/** When a document handed back is tried again. */
export const READER_BUSY_RETRY_MS = 5_000;

export interface DocumentProcessing {
  readonly documents: KnowledgeDocumentRepository;
  readonly knowledgeBases: KnowledgeBaseRepository;
  readonly users: UserRepository;
  readonly uow: UnitOfWork;
  readonly reader: DocumentReader;
  readonly jobs: JobScheduler;
  readonly clock: Clock;
  /** Null: passages are found by full text only. A failing model leaves the job to the runner's retries. */
  readonly embeddings: TextEmbeddings | null;
}

/**
 * A worker's half of adding a document: read it into passages and store them, or record why it
 * could not. A document that cannot be read (past a limit, damaged, too slow) is `failed` at once
 * with the reason. A reader that throws (the database away, a model down) leaves the job to the
 * runner's retries, but only a few: a job claimed again and again (a process that died reading it)
 * fails the document rather than being tried for hours. The text's size is held to the plan, like
 * the upload's was, under the account's lock. While the reader is busy with others, the job is
 * scheduled again a little later (which is no failed try): it waits in the job table, not holding a lease.
 */
export class ProcessDocument {
  constructor(private readonly deps: DocumentProcessing) {}

  /** `attempt`: claims of this document's job so far, this one included. */
  async process(documentId: number, attempt = 1): Promise<void> {
    const { documents, knowledgeBases, users, uow, reader, jobs, clock, embeddings } = this.deps;
    if (reader.backlog() >= READER_BACKLOG_MAX)
      return jobs.schedule(processDocumentJobFor(documentId, new Date(clock.now().getTime() + READER_BUSY_RETRY_MS)));
    const found = await documents.forProcessing(documentId);
    if (!found || found.document.status !== 'processing') return;
    if (attempt > DOCUMENT_PROCESSING_ATTEMPTS_MAX)
      return documents.finish(documentId, { status: 'failed', reason: documentFailureReason({ code: 'gave_up' }) });
    const read = await reader.read(found.document.source, found.file);
    if (!read.ok) return documents.finish(documentId, { status: 'failed', reason: read.error });
    const { passages } = read.value;
    const sizeBytes = Math.max(found.file?.byteLength ?? 0, read.value.sizeBytes);
    const vectors =
      embeddings === null
        ? undefined
        : { model: embeddings.model, vectors: await embedInBatches(embeddings, passages) };
    const { userId } = found.document;
    await uow.transaction(async () => {
      await users.lockBalance(userId);
      const plan = (await users.findById(userId))?.plan;
      const refusal = plan
        ? canKeepDocument(plan, await knowledgeBases.usage(userId), found.document.sizeBytes, sizeBytes)
        : null;
      if (refusal) return documents.finish(documentId, { status: 'failed', reason: documentFailureReason(refusal) });
      return documents.finish(documentId, { status: 'ready', passages, sizeBytes, embeddings: vectors });
    });
  }
}

export function processDocumentJob(processor: () => ProcessDocument): JobHandler {
  return {
    kind: PROCESS_DOCUMENT_JOB,
    handle: (job) => processor().process((job.payload as { document_id: number }).document_id, job.attempts),
  };
}
