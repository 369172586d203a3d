import {
  ConceptEmbeddings,
  InMemoryJobStore,
  InMemoryKnowledgeBases,
  InMemoryUnitOfWork,
  InMemoryUserRepository,
  ManualClock,
  SHOP_CONCEPTS,
} from '@voiceplane/adapter-fakes';
import { chunkText, DEFAULT_PLAN, err, ok, Plan } from '@voiceplane/domain';
import { DocumentReader, TextEmbeddings } from './ports';
import { ProcessDocument } from './process-document';

const MB = 1024 * 1024;
const passagesOf = (text: string) => ok({ passages: chunkText(text), sizeBytes: Buffer.byteLength(text) });

async function scene(
  text: string,
  o: { reader?: DocumentReader; embeddings?: TextEmbeddings | null; plan?: Plan; sizeBytes?: number } = {},
) {
  const clock = new ManualClock(new Date('2026-11-26T10:00:00Z'));
  const embeddings = o.embeddings ?? null;
  const store = new InMemoryKnowledgeBases(clock, embeddings);
  const users = new InMemoryUserRepository(clock);
  const user = (await users.create({
    name: 'Shop',
    email: 'shop@example.test',
    passwordHash: null,
    plan: o.plan ?? DEFAULT_PLAN,
  }))!;
  const kb = await store.knowledgeBaseRepository.create(user.id, { name: 'Shop', description: null, status: 'empty' });
  const doc = (await store.documentRepository.add(user.id, kb.id, {
    name: 'FAQ',
    description: null,
    source: { type: 'text', content: text },
    language: 'en',
    sizeBytes: o.sizeBytes ?? 1,
    file: null,
  }))!;
  const reader = o.reader ?? { read: async () => passagesOf(text), backlog: () => 0 };
  const jobs = new InMemoryJobStore();
  const process = new ProcessDocument({
    documents: store.documentRepository,
    knowledgeBases: store.knowledgeBaseRepository,
    users,
    uow: new InMemoryUnitOfWork(),
    reader,
    jobs,
    clock,
    embeddings,
  });
  return { store, user: user.id, kb: kb.id, doc: doc.id, process, jobs, clock };
}

describe('ProcessDocument', () => {
  it("fails a document the reader refuses with the reader's reason, once", async () => {
    let reads = 0;
    const reader = {
      read: async () => (reads++, err('The file unpacks to more than 32 MB; split it into smaller files.')),
      backlog: () => 0,
    };
    const { store, doc, process } = await scene('x', { reader });
    await process.process(doc);
    expect(store.documents.get(doc)!.doc).toMatchObject({
      status: 'failed',
      failureReason: 'The file unpacks to more than 32 MB; split it into smaller files.',
    });
    await process.process(doc);
    expect(reads).toBe(1);
  });

  it('fails a document whose job was claimed too often without reading it again', async () => {
    let reads = 0;
    const reader = { read: async () => (reads++, passagesOf('Open on Sundays.')), backlog: () => 0 };
    const { store, doc, process } = await scene('Open on Sundays.', { reader });
    await process.process(doc, 6);
    expect(reads).toBe(0);
    expect(store.documents.get(doc)!.doc).toMatchObject({
      status: 'failed',
      failureReason: 'The document could not be processed.',
    });
  });

  it('hands the document back to the job table while the reader has two documents, without counting a try', async () => {
    let reads = 0;
    let backlog = 2;
    const reader = { read: async () => (reads++, passagesOf('Open on Sundays.')), backlog: () => backlog };
    const { store, doc, process, jobs, clock } = await scene('Open on Sundays.', { reader });
    await process.process(doc, 3);
    expect(reads).toBe(0);
    expect(jobs.jobs()).toEqual([
      expect.objectContaining({
        kind: 'knowledge_base.document.process',
        key: `kb-document:${doc}`,
        payload: { document_id: doc },
        attempts: 0,
        runAt: new Date(clock.now().getTime() + 5_000),
      }),
    ]);
    expect(store.documents.get(doc)!.doc.status).toBe('processing');
    backlog = 1;
    await process.process(doc, 1);
    expect(store.documents.get(doc)!.doc.status).toBe('ready');
  });

  it("holds the text read, not the upload, to the plan's bytes across the account", async () => {
    const plan = { ...DEFAULT_PLAN, max_knowledge_base_bytes: 2 * MB };
    const big = { read: async () => ok({ passages: ['Open on Sundays.'], sizeBytes: 2 * MB + 1 }), backlog: () => 0 };
    const refused = await scene('Open on Sundays.', { reader: big, plan, sizeBytes: 60_000 });
    await refused.process.process(refused.doc);
    expect(refused.store.documents.get(refused.doc)!.doc).toMatchObject({
      status: 'failed',
      failureReason: "The document's text does not fit in the plan's 2 MB for knowledge bases.",
      chunksCount: 0,
    });
    const fits = { read: async () => ok({ passages: ['Open on Sundays.'], sizeBytes: 2 * MB }), backlog: () => 0 };
    const kept = await scene('Open on Sundays.', { reader: fits, plan, sizeBytes: 60_000 });
    await kept.process.process(kept.doc);
    expect(kept.store.documents.get(kept.doc)!.doc).toMatchObject({
      status: 'ready',
      sizeBytes: 2 * MB,
      chunksCount: 1,
    });
  });
});

describe('ProcessDocument with an embeddings model', () => {
  it('embeds every passage, in batches, and stores the vectors with them so similarity finds them', async () => {
    const paragraphs = Array.from(
      { length: 90 },
      (_, i) =>
        `Paragraph ${i}: refunds and money back are explained at length here, with enough words to fill a passage of the document.`,
    );
    const embeddings = new ConceptEmbeddings(SHOP_CONCEPTS);
    const { store, user, kb, doc, process } = await scene(paragraphs.join('\n\n'), { embeddings });
    await process.process(doc);
    const stored = store.documents.get(doc)!;
    expect(stored.doc.status).toBe('ready');
    expect(stored.embeddings).toHaveLength(stored.passages.length);
    expect(embeddings.calls.map((c) => c.length)).toEqual(
      stored.passages.length > 64 ? [64, stored.passages.length - 64] : [stored.passages.length],
    );
    expect(stored.embeddings![0]).toEqual((await embeddings.embed([stored.passages[0]]))[0]);
    expect((await store.retrieval.search(user, kb, 'reimbursement', 1)).map((p) => p.documentId)).toEqual([doc]);
  });

  it("leaves the job to the runner's retries when the model fails, the document still processing", async () => {
    const failingModel = {
      model: 'm',
      embed: async (): Promise<number[][]> => {
        throw new Error('model away');
      },
    };
    const { store, doc, process } = await scene('Refunds are paid within 14 days.', { embeddings: failingModel });
    await expect(process.process(doc)).rejects.toThrow('model away');
    expect(store.documents.get(doc)!.doc.status).toBe('processing');
  });
});
