import { ConceptEmbeddings, InMemoryKnowledgeBases, ManualClock, SHOP_CONCEPTS } from '@voiceplane/adapter-fakes';
import { ok } from '@voiceplane/domain';
import { ProcessDocument } from './process-document';

const USER = 3;

async function scene(text: string) {
  const embeddings = new ConceptEmbeddings(SHOP_CONCEPTS);
  const store = new InMemoryKnowledgeBases(new ManualClock(new Date('2026-11-26T10:00:00Z')), embeddings);
  const kb = await store.knowledgeBaseRepository.create(USER, { name: 'Shop', description: null, status: 'empty' });
  const doc = (await store.documentRepository.add(USER, kb.id, { name: 'FAQ', description: null, source: { type: 'text', content: text }, language: 'en', sizeBytes: 1, file: null }))!;
  const reader = { read: async () => ok({ text }) };
  return { store, kb: kb.id, doc: doc.id, embeddings, process: new ProcessDocument(store.documentRepository, reader, embeddings) };
}

describe('ProcessDocument with an embeddings model', () => {
  it('embeds every passage, in batches, and stores the vectors with them so similarity finds them', async () => {
    const paragraphs = Array.from({ length: 90 }, (_, i) => `Paragraph ${i}: refunds and money back are explained at length here, with enough words to fill a passage of the document.`);
    const { store, kb, doc, embeddings, process } = await scene(paragraphs.join('\n\n'));
    await process.process(doc);
    const stored = store.documents.get(doc)!;
    expect(stored.doc.status).toBe('ready');
    expect(stored.embeddings).toHaveLength(stored.passages.length);
    expect(embeddings.calls.map((c) => c.length)).toEqual(stored.passages.length > 64 ? [64, stored.passages.length - 64] : [stored.passages.length]);
    expect(stored.embeddings![0]).toEqual((await embeddings.embed([stored.passages[0]]))[0]);
    expect((await store.retrieval.search(USER, kb, 'reimbursement', 1)).map((p) => p.documentId)).toEqual([doc]);
  });

  it('leaves the job to the runner\'s retries when the model fails, the document still processing', async () => {
    const { store, doc } = await scene('Refunds are paid within 14 days.');
    const failing = new ProcessDocument(store.documentRepository, { read: async () => ok({ text: 'Refunds are paid within 14 days.' }) }, { model: 'm', embed: async () => { throw new Error('model away'); } });
    await expect(failing.process(doc)).rejects.toThrow('model away');
    expect(store.documents.get(doc)!.doc.status).toBe('processing');
  });
});
