import { chunkText } from '@voiceplane/domain';
import { JobHandler } from '../events/ports';
import { DocumentReader, KnowledgeDocumentRepository, TextEmbeddings } from './ports';
import { PROCESS_DOCUMENT_JOB } from './manage-knowledge-bases';

const NO_TEXT = 'No text could be read from the document.';
/** Passages per embeddings request: well under the inputs an OpenAI-compatible endpoint takes at once. */
const EMBEDDING_BATCH = 64;

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
    const embeddings = this.embeddings === null ? undefined : await this.embed(this.embeddings, passages);
    await this.documents.finish(documentId, { status: 'ready', passages, sizeBytes, embeddings });
  }

  private async embed(model: TextEmbeddings, passages: readonly string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let i = 0; i < passages.length; i += EMBEDDING_BATCH) {
      const batch = passages.slice(i, i + EMBEDDING_BATCH);
      const got = await model.embed(batch);
      if (got.length !== batch.length) throw new Error(`The embeddings model answered ${got.length} vectors for ${batch.length} passages.`);
      vectors.push(...got);
    }
    return vectors;
  }
}

export function processDocumentJob(processor: () => ProcessDocument): JobHandler {
  return {
    kind: PROCESS_DOCUMENT_JOB,
    handle: (job) => processor().process((job.payload as { document_id: number }).document_id),
  };
}
