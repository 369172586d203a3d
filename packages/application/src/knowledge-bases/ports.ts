import {
  DocumentSource,
  KnowledgeBase,
  KnowledgeBaseDocument,
  KnowledgeBaseStatus,
  KnowledgeUsage,
  Passage,
  Result,
} from '@voiceplane/domain';

export interface KnowledgeBaseChanges {
  readonly name?: string;
  /** Null clears it. */
  readonly description?: string | null;
}

export interface KnowledgeBaseRepository {
  create(
    userId: number,
    kb: { name: string; description: string | null; status: KnowledgeBaseStatus },
  ): Promise<KnowledgeBase>;
  listOwned(userId: number): Promise<KnowledgeBase[]>;
  /** Null for a missing id and for another user's knowledge base alike. */
  findOwned(userId: number, id: number): Promise<KnowledgeBase | null>;
  update(userId: number, id: number, changes: KnowledgeBaseChanges): Promise<KnowledgeBase | null>;
  /** Removes its documents and their passages too; assistants pointing at it lose the reference. */
  delete(userId: number, id: number): Promise<boolean>;
  /** What the account holds, for the plan's limits; read inside the caller's transaction. */
  usage(userId: number): Promise<KnowledgeUsage>;
}

export interface NewDocument {
  readonly name: string;
  readonly description: string | null;
  readonly source: DocumentSource;
  readonly language: string;
  /** Counted against the plan until processing knows better (the text of a crawled site). */
  readonly sizeBytes: number;
  /** The upload of a `file` document, kept so a worker can read it. */
  readonly file: Uint8Array | null;
}

/** What a worker needs to read a document. */
export interface DocumentToProcess {
  readonly document: KnowledgeBaseDocument;
  readonly file: Uint8Array | null;
}

export type ProcessingOutcome =
  | {
      readonly status: 'ready';
      readonly passages: readonly string[];
      readonly sizeBytes: number;
      /** One vector per passage, in order, and the model that made them, when an embeddings model is configured. */
      readonly embeddings?: { readonly model: string; readonly vectors: readonly (readonly number[])[] };
    }
  | { readonly status: 'failed'; readonly reason: string };

export interface KnowledgeDocumentRepository {
  /** Null when the knowledge base is not the user's. The document starts `processing`. */
  add(userId: number, knowledgeBaseId: number, document: NewDocument): Promise<KnowledgeBaseDocument | null>;
  /** Oldest first; null when the knowledge base is not the user's. */
  list(userId: number, knowledgeBaseId: number): Promise<KnowledgeBaseDocument[] | null>;
  find(userId: number, knowledgeBaseId: number, documentId: number): Promise<KnowledgeBaseDocument | null>;
  rename(
    userId: number,
    knowledgeBaseId: number,
    documentId: number,
    changes: KnowledgeBaseChanges,
  ): Promise<KnowledgeBaseDocument | null>;
  /** Removes its passages too. */
  delete(userId: number, knowledgeBaseId: number, documentId: number): Promise<boolean>;
  forProcessing(documentId: number): Promise<DocumentToProcess | null>;
  /**
   * Stores the passages (replacing any earlier ones) and the final status in one transaction; a
   * document deleted meanwhile stays deleted. The passages are indexed in the document's language.
   */
  finish(documentId: number, outcome: ProcessingOutcome): Promise<void>;
}

/** Finds the passages of a knowledge base that best answer a question. */
export interface KnowledgeRetrieval {
  /** Best first, at most `limit`; none when nothing in the knowledge base matches. */
  search(userId: number, knowledgeBaseId: number, question: string, limit: number): Promise<Passage[]>;
}

/** An embeddings model (an OpenAI-compatible `/embeddings` endpoint): texts to vectors, one per text, in order. */
export interface TextEmbeddings {
  /** Its name (EMBEDDINGS_MODEL): vectors of different models are never compared. */
  readonly model: string;
  /** Throws when the model cannot be reached or answers an error. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

/**
 * Reads a document — the body as sent, an upload's format, or a website's pages — into the passages
 * it is searched by, within the document limits (DOCUMENT_TEXT_MAX_BYTES and the others), without
 * holding up the process's other work while it does.
 */
export interface DocumentReader {
  /**
   * The passages in order and the UTF-8 bytes of the text they were cut from. A refusal is a reason
   * in words the user can act on (`The PDF has no text layer.`); throwing means "try again later".
   */
  read(
    source: DocumentSource,
    file: Uint8Array | null,
  ): Promise<Result<{ readonly passages: string[]; readonly sizeBytes: number }, string>>;
  /** Documents handed to `read` and not read yet (it reads one at a time). */
  backlog(): number;
}

/** A stored passage, for embedding it after the fact. */
export interface UnembeddedPassage {
  readonly id: number;
  readonly content: string;
}

/**
 * The backfill's side of the passages: those a model has not embedded (stored before a model was
 * configured, or embedded by another one), and their new vectors.
 */
export interface PassageEmbeddings {
  /** Passages with an id above `afterId` that `model` has not embedded, by id ascending, at most `limit`. */
  unembedded(model: string, afterId: number, limit: number): Promise<UnembeddedPassage[]>;
  /** Stores the vectors as `model`'s; a passage deleted meanwhile (its document removed or read again) is skipped. */
  store(model: string, vectors: readonly { readonly id: number; readonly vector: readonly number[] }[]): Promise<void>;
}
