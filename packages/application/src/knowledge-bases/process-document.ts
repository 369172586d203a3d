import { chunkText } from '@voiceplane/domain';
import { JobHandler } from '../events/ports';
import { DocumentReader, KnowledgeDocumentRepository, TextEmbeddings } from './ports';
import { embedInBatches } from './backfill-embeddings';
import { PROCESS_DOCUMENT_JOB } from './manage-knowledge-bases';

const NO_TEXT = 'No text could be read from the document.';

/**
 * A worker's half of adding a document: read its text, cut it into overlapping passages and store
 * them, or record why it could not. A reader that throws (a bug, the database away) leaves the job
 * to the runner's retries; a document that cannot be read is `failed` at once with the reason.
 */
export class ProcessDocument {
  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly reader: DocumentReader,
    /** Null: passages are found by full text only. A failing model leaves the job to the runner's retries. */
    private readonly embeddings: TextEmbeddings | null = null,
  ) {}

  async process(documentId: number): Promise<void> {
    const found = await this.documents.forProcessing(documentId);
    if (!found || found.document.status !== 'processing') return;
    const read = await this.reader.read(found.document.source, found.file);
    if (!read.ok) return this.documents.finish(documentId, { status: 'failed', reason: read.error });
    const passages = chunkText(read.value.text);
    if (passages.length === 0) return this.documents.finish(documentId, { status: 'failed', reason: NO_TEXT });
    const sizeBytes = Math.max(found.file?.byteLength ?? 0, Buffer.byteLength(read.value.text, 'utf8'));
    const embeddings = this.embeddings === null ? undefined : { model: this.embeddings.model, vectors: await embedInBatches(this.embeddings, passages) };
    await this.documents.finish(documentId, { status: 'ready', passages, sizeBytes, embeddings });
  }
}

export function processDocumentJob(processor: () => ProcessDocument): JobHandler {
  return {
    kind: PROCESS_DOCUMENT_JOB,
    handle: (job) => processor().process((job.payload as { document_id: number }).document_id),
  };
}
