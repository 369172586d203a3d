import {
  Clock,
  DocumentToProcess,
  KnowledgeBaseChanges,
  KnowledgeBaseRepository,
  KnowledgeDocumentRepository,
  KnowledgeRetrieval,
  NewDocument,
  PassageEmbeddings,
  ProcessingOutcome,
  TextEmbeddings,
} from '@voiceplane/application';
import {
  cosineSimilarity,
  fuseRankings,
  KnowledgeBase,
  KnowledgeBaseDocument,
  KnowledgeBaseStatus,
  KnowledgeUsage,
  MIN_SIMILARITY,
  Passage,
  RANKING_CANDIDATES,
} from '@voiceplane/domain';

type Writable<T> = { -readonly [K in keyof T]: T[K] };
interface StoredDocument {
  doc: Writable<KnowledgeBaseDocument>;
  file: Uint8Array | null;
  passages: string[];
  /** Each passage's id, vector and the model that made it (null: not embedded), by position. */
  passageIds: number[];
  embeddings?: (readonly number[] | null)[];
  models: (string | null)[];
}

const bestFirst = (a: Passage, b: Passage) =>
  b.score - a.score || a.documentId - b.documentId || a.position - b.position;

/**
 * Knowledge bases, their documents and passages in memory, with the semantics of the PostgreSQL
 * adapters (see the knowledge-base contract). Search is word overlap with a crude plural folding,
 * enough for the contract's fixed corpus; the real ranking is PostgreSQL's full-text search.
 */
export class InMemoryKnowledgeBases {
  readonly bases = new Map<number, Writable<KnowledgeBase>>();
  readonly documents = new Map<number, StoredDocument>();
  private lastBase = 0;
  private lastDocument = 0;
  private lastPassage = 0;

  /** `embeddings`: the question is embedded and ranked by similarity too, fused as PostgreSQL does. */
  constructor(
    private readonly clock: Clock,
    private readonly embeddings: TextEmbeddings | null = null,
  ) {}

  readonly knowledgeBaseRepository: KnowledgeBaseRepository = {
    create: async (userId, kb) => {
      const now = this.clock.now();
      const row = {
        id: ++this.lastBase,
        userId,
        ...kb,
        documentsCount: 0,
        assistantsCount: 0,
        createdAt: now,
        updatedAt: now,
      };
      this.bases.set(row.id, row);
      return { ...row };
    },
    listOwned: async (userId) =>
      [...this.bases.values()]
        .filter((b) => b.userId === userId)
        .sort((a, b) => b.id - a.id)
        .map((b) => ({ ...b })),
    findOwned: async (userId, id) => this.ownedBase(userId, id),
    update: async (userId, id, changes) => {
      const row = this.bases.get(id);
      if (!row || row.userId !== userId) return null;
      applyChanges(row, changes);
      row.updatedAt = this.clock.now();
      return { ...row };
    },
    delete: async (userId, id) => {
      const row = this.bases.get(id);
      if (!row || row.userId !== userId) return false;
      this.bases.delete(id);
      for (const [docId, d] of this.documents) if (d.doc.knowledgeBaseId === id) this.documents.delete(docId);
      return true;
    },
    usage: async (userId): Promise<KnowledgeUsage> => {
      const docs = [...this.documents.values()].filter((d) => d.doc.userId === userId);
      return {
        knowledgeBases: [...this.bases.values()].filter((b) => b.userId === userId).length,
        documents: docs.length,
        bytes: docs.reduce((sum, d) => sum + d.doc.sizeBytes, 0),
      };
    },
  };

  readonly documentRepository: KnowledgeDocumentRepository = {
    add: async (userId, knowledgeBaseId, document: NewDocument) => {
      if (!this.ownedBase(userId, knowledgeBaseId)) return null;
      const now = this.clock.now();
      const doc: Writable<KnowledgeBaseDocument> = {
        id: ++this.lastDocument,
        knowledgeBaseId,
        userId,
        name: document.name,
        description: document.description,
        source: document.source,
        language: document.language,
        status: 'processing',
        failureReason: null,
        sizeBytes: document.sizeBytes,
        chunksCount: 0,
        createdAt: now,
        updatedAt: now,
      };
      this.documents.set(doc.id, { doc, file: document.file, passages: [], passageIds: [], models: [] });
      this.refresh(knowledgeBaseId);
      return { ...doc };
    },
    list: async (userId, knowledgeBaseId) => {
      if (!this.ownedBase(userId, knowledgeBaseId)) return null;
      return [...this.documents.values()]
        .filter((d) => d.doc.knowledgeBaseId === knowledgeBaseId)
        .map((d) => ({ ...d.doc }))
        .sort((a, b) => a.id - b.id);
    },
    find: async (userId, knowledgeBaseId, documentId) => {
      const d = this.ownedDocument(userId, knowledgeBaseId, documentId);
      return d ? { ...d.doc } : null;
    },
    rename: async (userId, knowledgeBaseId, documentId, changes: KnowledgeBaseChanges) => {
      const d = this.ownedDocument(userId, knowledgeBaseId, documentId);
      if (!d) return null;
      applyChanges(d.doc, changes);
      d.doc.updatedAt = this.clock.now();
      return { ...d.doc };
    },
    delete: async (userId, knowledgeBaseId, documentId) => {
      if (!this.ownedDocument(userId, knowledgeBaseId, documentId)) return false;
      this.documents.delete(documentId);
      this.refresh(knowledgeBaseId);
      return true;
    },
    forProcessing: async (documentId): Promise<DocumentToProcess | null> => {
      const d = this.documents.get(documentId);
      return d ? { document: { ...d.doc }, file: d.file } : null;
    },
    finish: async (documentId, outcome: ProcessingOutcome) => {
      const d = this.documents.get(documentId);
      if (!d) return;
      d.doc.status = outcome.status;
      d.doc.updatedAt = this.clock.now();
      if (outcome.status === 'ready') {
        d.passages = [...outcome.passages];
        d.passageIds = outcome.passages.map(() => ++this.lastPassage);
        d.embeddings = outcome.embeddings?.vectors.map((v) => [...v]);
        d.models = outcome.passages.map(() => outcome.embeddings?.model ?? null);
        Object.assign(d.doc, {
          failureReason: null,
          chunksCount: outcome.passages.length,
          sizeBytes: outcome.sizeBytes,
        });
      } else {
        Object.assign(d, { passages: [], passageIds: [], embeddings: undefined, models: [] });
        Object.assign(d.doc, { failureReason: outcome.reason, chunksCount: 0 });
      }
      this.refresh(d.doc.knowledgeBaseId);
    },
  };

  readonly retrieval: KnowledgeRetrieval = {
    search: async (userId, knowledgeBaseId, question, limit) => {
      const byText = this.byWords(userId, knowledgeBaseId, question);
      if (this.embeddings === null) return byText.slice(0, limit);
      const [vector] = await this.embeddings.embed([question]);
      return fuseRankings(
        [
          byText.slice(0, RANKING_CANDIDATES),
          this.nearest(userId, knowledgeBaseId, this.embeddings.model, vector).slice(0, RANKING_CANDIDATES),
        ],
        limit,
      );
    },
  };

  readonly passageEmbeddings: PassageEmbeddings = {
    unembedded: async (model, afterId, limit) =>
      [...this.documents.values()]
        .flatMap((d) => d.passages.map((content, i) => ({ id: d.passageIds[i], content, model: d.models[i] })))
        .filter((p) => p.id > afterId && p.model !== model)
        .sort((a, b) => a.id - b.id)
        .slice(0, limit)
        .map(({ id, content }) => ({ id, content })),
    store: async (model, vectors) => {
      for (const { id, vector } of vectors) {
        for (const d of this.documents.values()) {
          const i = d.passageIds.indexOf(id);
          if (i < 0) continue;
          d.embeddings ??= d.passages.map(() => null);
          d.embeddings[i] = [...vector];
          d.models[i] = model;
        }
      }
    },
  };

  private passagesOf(
    userId: number,
    knowledgeBaseId: number,
  ): { passage: Passage; embedding: readonly number[] | null; model: string | null }[] {
    const all: { passage: Passage; embedding: readonly number[] | null; model: string | null }[] = [];
    for (const { doc, passages, embeddings, models } of this.documents.values()) {
      if (doc.userId !== userId || doc.knowledgeBaseId !== knowledgeBaseId) continue;
      passages.forEach((content, i) =>
        all.push({
          passage: { documentId: doc.id, documentName: doc.name, position: i + 1, content, score: 0 },
          embedding: embeddings?.[i] ?? null,
          model: models[i] ?? null,
        }),
      );
    }
    return all;
  }

  private byWords(userId: number, knowledgeBaseId: number, question: string): Passage[] {
    const wanted = new Set(words(question));
    return this.passagesOf(userId, knowledgeBaseId)
      .map(({ passage }) => {
        const have = new Set(words(passage.content));
        return { ...passage, score: [...wanted].filter((w) => have.has(w)).length };
      })
      .filter((p) => p.score > 0)
      .sort(bestFirst);
  }

  /** Only vectors of the question's model are compared: another model's mean nothing beside it. */
  private nearest(userId: number, knowledgeBaseId: number, model: string, vector: readonly number[]): Passage[] {
    return this.passagesOf(userId, knowledgeBaseId)
      .filter((p) => p.embedding !== null && p.model === model)
      .map(({ passage, embedding }) => ({
        ...passage,
        score: cosineSimilarity(embedding as readonly number[], vector),
      }))
      .filter((p) => p.score >= MIN_SIMILARITY)
      .sort(bestFirst);
  }

  private ownedBase(userId: number, id: number): KnowledgeBase | null {
    const row = this.bases.get(id);
    if (!row || row.userId !== userId) return null;
    return { ...row, documentsCount: [...this.documents.values()].filter((d) => d.doc.knowledgeBaseId === id).length };
  }

  private ownedDocument(userId: number, knowledgeBaseId: number, documentId: number): StoredDocument | null {
    const d = this.documents.get(documentId);
    return d && d.doc.userId === userId && d.doc.knowledgeBaseId === knowledgeBaseId ? d : null;
  }

  private refresh(knowledgeBaseId: number): void {
    const base = this.bases.get(knowledgeBaseId);
    if (!base) return;
    const docs = [...this.documents.values()]
      .filter((d) => d.doc.knowledgeBaseId === knowledgeBaseId)
      .map((d) => d.doc.status);
    base.documentsCount = docs.length;
    if (docs.length === 0) return;
    const status: KnowledgeBaseStatus = docs.includes('processing')
      ? 'processing'
      : docs.includes('ready')
        ? 'active'
        : 'failed';
    base.status = status;
  }
}

function applyChanges(row: { name: string; description: string | null }, changes: KnowledgeBaseChanges): void {
  if (changes.name !== undefined) row.name = changes.name;
  if (changes.description !== undefined) row.description = changes.description;
}

const STOP = new Set([
  'the',
  'and',
  'for',
  'are',
  'you',
  'your',
  'our',
  'what',
  'how',
  'with',
  'is',
  'a',
  'an',
  'of',
  'to',
  'in',
  'on',
  'do',
  'we',
]);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((w) => !STOP.has(w))
    .map((w) => (w.length > 3 ? w.replace(/s$/, '') : w));
}
