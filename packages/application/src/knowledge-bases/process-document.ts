import { canKeepDocument, documentFailureReason, DOCUMENT_PROCESSING_ATTEMPTS_MAX } from '@voiceplane/domain';
import { JobHandler } from '../events/ports';
import { UserRepository } from '../ports/accounts';
import { UnitOfWork } from '../ports/unit-of-work';
import { DocumentReader, KnowledgeBaseRepository, KnowledgeDocumentRepository, TextEmbeddings } from './ports';
import { embedInBatches } from './backfill-embeddings';
import { PROCESS_DOCUMENT_JOB } from './manage-knowledge-bases';

export interface DocumentProcessing {
  readonly documents: KnowledgeDocumentRepository;
  readonly knowledgeBases: KnowledgeBaseRepository;
  readonly users: UserRepository;
  readonly uow: UnitOfWork;
  readonly reader: DocumentReader;
  /** Null: passages are found by full text only. A failing model leaves the job to the runner's retries. */
  readonly embeddings: TextEmbeddings | null;
}

/**
 * A worker's half of adding a document: read it into passages and store them, or record why it
 * could not. A document that cannot be read (past a limit, damaged, too slow) is `failed` at once
 * with the reason. A reader that throws (the database away, a model down) leaves the job to the
 * runner's retries, but only a few: a job claimed again and again (a process that died reading it)
 * fails the document rather than being tried for hours. The text's size is held to the plan, like
 * the upload's was, under the account's lock.
 */
export class ProcessDocument {
  constructor(private readonly deps: DocumentProcessing) {}

  /** `attempt`: claims of this document's job so far, this one included. */
  async process(documentId: number, attempt = 1): Promise<void> {
    const { documents, knowledgeBases, users, uow, reader, embeddings } = this.deps;
    const found = await documents.forProcessing(documentId);
    if (!found || found.document.status !== 'processing') return;
    if (attempt > DOCUMENT_PROCESSING_ATTEMPTS_MAX) return documents.finish(documentId, { status: 'failed', reason: documentFailureReason({ code: 'gave_up' }) });
    const read = await reader.read(found.document.source, found.file);
    if (!read.ok) return documents.finish(documentId, { status: 'failed', reason: read.error });
    const { passages } = read.value;
    const sizeBytes = Math.max(found.file?.byteLength ?? 0, read.value.sizeBytes);
    const vectors = embeddings === null ? undefined : { model: embeddings.model, vectors: await embedInBatches(embeddings, passages) };
    const { userId } = found.document;
    await uow.transaction(async () => {
      await users.lockBalance(userId);
      const plan = (await users.findById(userId))?.plan;
      const refusal = plan ? canKeepDocument(plan, await knowledgeBases.usage(userId), found.document.sizeBytes, sizeBytes) : null;
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
