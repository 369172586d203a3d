import {
  KnowledgeBaseRepository,
  KnowledgeDocumentRepository,
  KnowledgeRetrieval,
  NewDocument,
  PassageEmbeddings,
  TextEmbeddings,
} from '@voiceplane/application';
import { ConceptEmbeddings, SHOP_CONCEPTS } from '@voiceplane/adapter-fakes';

export interface KnowledgeStores {
  readonly knowledgeBases: KnowledgeBaseRepository;
  readonly documents: KnowledgeDocumentRepository;
  readonly retrieval: KnowledgeRetrieval;
  /** The backfill's side of the same passages. */
  readonly passageEmbeddings: PassageEmbeddings;
  /** The model the retrieval embeds questions with; passages are embedded by it too (as the worker does). */
  readonly embeddings: TextEmbeddings | null;
  newUser(): Promise<number>;
}

const text = (name: string, content: string): NewDocument => ({
  name,
  description: null,
  source: { type: 'text', content },
  language: 'en',
  sizeBytes: Buffer.byteLength(content),
  file: null,
});

/** A fixed corpus: the ranking below must hold for every implementation. */
const CORPUS = {
  refunds: 'Refunds are paid within 14 days. To ask for a refund, send the receipt to our support team.',
  shipping: 'Shipping takes 3 days inside Germany. Express shipping is available for a fee.',
  hours: 'Our shop is open Monday to Friday from 9 to 18. On Saturdays we close at 14.',
};

/**
 * The knowledge-base ports' behaviour, run against every implementation. `open(null)`: full text
 * only; `open(model)`: the retrieval also ranks by the model's embeddings.
 */
export function knowledgeBasesContract(
  name: string,
  open: (embeddings: TextEmbeddings | null) => Promise<KnowledgeStores>,
): void {
  describe(`knowledge-base stores contract: ${name}`, () => {
    let s: KnowledgeStores;
    let userId: number;
    let other: number;

    beforeEach(async () => {
      s = await open(null);
      userId = await s.newUser();
      other = await s.newUser();
    });

    const ready = async (kbId: number, doc: NewDocument) => {
      const added = await s.documents.add(userId, kbId, doc);
      if (!added) throw new Error('not added');
      const content = doc.source.type === 'text' ? doc.source.content : '';
      const embeddings =
        s.embeddings === null ? undefined : { model: s.embeddings.model, vectors: await s.embeddings.embed([content]) };
      await s.documents.finish(added.id, {
        status: 'ready',
        passages: [content],
        sizeBytes: Buffer.byteLength(content),
        embeddings,
      });
      return added;
    };

    /** Passages of earlier tests may share the store: the backfill's lists are read after the last of them. */
    const lastPassageId = async () =>
      Math.max(0, ...(await s.passageEmbeddings.unembedded('no-such-model', 0, 100_000)).map((p) => p.id));

    it('creates, renames, lists newest first and deletes knowledge bases; another account sees none of them', async () => {
      const a = await s.knowledgeBases.create(userId, { name: 'FAQ', description: null, status: 'empty' });
      const b = await s.knowledgeBases.create(userId, { name: 'Prices', description: 'List', status: 'empty' });
      expect(a).toMatchObject({
        userId,
        name: 'FAQ',
        description: null,
        status: 'empty',
        documentsCount: 0,
        assistantsCount: 0,
      });
      expect((await s.knowledgeBases.listOwned(userId)).map((k) => k.name)).toEqual(['Prices', 'FAQ']);
      expect(await s.knowledgeBases.listOwned(other)).toEqual([]);
      expect(await s.knowledgeBases.findOwned(other, a.id)).toBeNull();
      expect(await s.knowledgeBases.update(other, a.id, { name: 'x' })).toBeNull();
      expect(await s.knowledgeBases.update(userId, b.id, { description: null })).toMatchObject({
        name: 'Prices',
        description: null,
      });
      expect(await s.knowledgeBases.update(userId, a.id, { name: 'Help' })).toMatchObject({
        name: 'Help',
        description: null,
      });
      expect(await s.knowledgeBases.delete(other, a.id)).toBe(false);
      expect(await s.knowledgeBases.delete(userId, a.id)).toBe(true);
      expect(await s.knowledgeBases.findOwned(userId, a.id)).toBeNull();
      expect(await s.knowledgeBases.usage(userId)).toEqual({ knowledgeBases: 1, documents: 0, bytes: 0 });
    });

    it('keeps documents processing until a worker finishes them, and the knowledge base follows', async () => {
      const kb = await s.knowledgeBases.create(userId, { name: 'FAQ', description: null, status: 'empty' });
      expect(await s.documents.add(other, kb.id, text('x', 'y'))).toBeNull();
      const doc = await s.documents.add(userId, kb.id, text('Refunds', CORPUS.refunds));
      expect(doc).toMatchObject({
        knowledgeBaseId: kb.id,
        name: 'Refunds',
        status: 'processing',
        failureReason: null,
        chunksCount: 0,
        source: { type: 'text', content: CORPUS.refunds },
      });
      expect(await s.knowledgeBases.findOwned(userId, kb.id)).toMatchObject({
        status: 'processing',
        documentsCount: 1,
      });
      expect((await s.documents.forProcessing(doc!.id))?.document.id).toBe(doc!.id);
      await s.documents.finish(doc!.id, { status: 'ready', passages: ['one', 'two'], sizeBytes: 42 });
      expect(await s.documents.find(userId, kb.id, doc!.id)).toMatchObject({
        status: 'ready',
        chunksCount: 2,
        sizeBytes: 42,
      });
      expect(await s.knowledgeBases.findOwned(userId, kb.id)).toMatchObject({ status: 'active', documentsCount: 1 });
      const bad = await s.documents.add(userId, kb.id, text('Bad', 'z'));
      await s.documents.finish(bad!.id, { status: 'failed', reason: 'No text could be read from the document.' });
      expect(await s.documents.find(userId, kb.id, bad!.id)).toMatchObject({
        status: 'failed',
        failureReason: 'No text could be read from the document.',
      });
      expect(await s.knowledgeBases.usage(userId)).toEqual({ knowledgeBases: 1, documents: 2, bytes: 43 });
      expect((await s.documents.list(userId, kb.id))?.map((d) => d.name)).toEqual(['Refunds', 'Bad']);
      expect(await s.documents.list(other, kb.id)).toBeNull();
    });

    it('counts every document when several are added and finished at once', async () => {
      const kb = await s.knowledgeBases.create(userId, { name: 'Many', description: null, status: 'empty' });
      const docs = await Promise.all(
        Array.from({ length: 8 }, (_, i) => s.documents.add(userId, kb.id, text(`Doc ${i}`, CORPUS.refunds))),
      );
      expect(await s.knowledgeBases.findOwned(userId, kb.id)).toMatchObject({
        status: 'processing',
        documentsCount: 8,
      });
      await Promise.all(
        docs.map((d) => s.documents.finish(d!.id, { status: 'ready', passages: ['one'], sizeBytes: 1 })),
      );
      expect(await s.knowledgeBases.findOwned(userId, kb.id)).toMatchObject({ status: 'active', documentsCount: 8 });
    });

    it('renames and deletes documents only within their own knowledge base and account', async () => {
      const kb = await s.knowledgeBases.create(userId, { name: 'FAQ', description: null, status: 'empty' });
      const otherKb = await s.knowledgeBases.create(userId, { name: 'Other', description: null, status: 'empty' });
      const doc = await ready(kb.id, text('Refunds', CORPUS.refunds));
      expect(await s.documents.find(userId, otherKb.id, doc.id)).toBeNull();
      expect(await s.documents.rename(other, kb.id, doc.id, { name: 'x' })).toBeNull();
      expect(
        await s.documents.rename(userId, kb.id, doc.id, { name: 'Money back', description: 'policy' }),
      ).toMatchObject({ name: 'Money back', description: 'policy' });
      expect(await s.documents.delete(userId, otherKb.id, doc.id)).toBe(false);
      expect(await s.documents.delete(userId, kb.id, doc.id)).toBe(true);
      expect(await s.documents.find(userId, kb.id, doc.id)).toBeNull();
      expect(await s.retrieval.search(userId, kb.id, 'refund', 5)).toEqual([]);
      await s.documents.finish(doc.id, { status: 'ready', passages: ['late'], sizeBytes: 4 });
      expect(await s.documents.find(userId, kb.id, doc.id)).toBeNull();
    });

    it('ranks the passages that share the most words with the question first, within one account and knowledge base', async () => {
      const kb = await s.knowledgeBases.create(userId, { name: 'Shop', description: null, status: 'empty' });
      const refunds = await ready(kb.id, text('Refunds', CORPUS.refunds));
      const shipping = await ready(kb.id, text('Shipping', CORPUS.shipping));
      await ready(kb.id, text('Hours', CORPUS.hours));
      const found = await s.retrieval.search(userId, kb.id, 'How many days until my refund is paid?', 5);
      expect(found.map((p) => p.documentId)).toEqual([refunds.id, shipping.id]);
      expect(found[0]).toMatchObject({ documentName: 'Refunds', position: 1, content: CORPUS.refunds });
      expect(found[0].score).toBeGreaterThan(found[1].score);
      expect((await s.retrieval.search(userId, kb.id, 'express shipping fee', 1)).map((p) => p.documentId)).toEqual([
        shipping.id,
      ]);
      expect(await s.retrieval.search(userId, kb.id, 'zebra', 5)).toEqual([]);
      expect(await s.retrieval.search(other, kb.id, 'refund', 5)).toEqual([]);
      expect(await s.knowledgeBases.delete(userId, kb.id)).toBe(true);
      expect(await s.retrieval.search(userId, kb.id, 'refund', 5)).toEqual([]);
    });

    it('with embeddings: finds a passage that says it in other words, and ranks one found both ways first', async () => {
      s = await open(new ConceptEmbeddings(SHOP_CONCEPTS));
      userId = await s.newUser();
      const kb = await s.knowledgeBases.create(userId, { name: 'Shop', description: null, status: 'empty' });
      const refunds = await ready(kb.id, text('Refunds', CORPUS.refunds));
      const shipping = await ready(kb.id, text('Shipping', CORPUS.shipping));
      await ready(kb.id, text('Hours', CORPUS.hours));
      // No word in common with any passage: only the embeddings find it.
      expect((await s.retrieval.search(userId, kb.id, 'I want my money back', 5)).map((p) => p.documentId)).toEqual([
        refunds.id,
      ]);
      // Full text finds Refunds alone; similarity puts Shipping first and Refunds second; fused, Refunds leads.
      const fused = await s.retrieval.search(userId, kb.id, 'When is the parcel delivered, and can I get a refund?', 5);
      expect(fused.map((p) => p.documentId)).toEqual([refunds.id, shipping.id]);
      expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 10);
      expect(fused[1].score).toBeCloseTo(1 / 61, 10);
      expect(await s.retrieval.search(userId, kb.id, 'zebra', 5)).toEqual([]);
      expect(await s.retrieval.search(other, kb.id, 'money back', 5)).toEqual([]);
    });

    it("with embeddings: compares only the vectors of the question's model", async () => {
      const model = new ConceptEmbeddings(SHOP_CONCEPTS);
      s = await open(model);
      userId = await s.newUser();
      const kb = await s.knowledgeBases.create(userId, { name: 'Shop', description: null, status: 'empty' });
      const refunds = (await s.documents.add(userId, kb.id, text('Refunds', CORPUS.refunds)))!;
      const since = await lastPassageId();
      // Same length, other model: its vectors mean nothing beside the question's.
      await s.documents.finish(refunds.id, {
        status: 'ready',
        passages: [CORPUS.refunds],
        sizeBytes: 1,
        embeddings: { model: 'other-model', vectors: await model.embed([CORPUS.refunds]) },
      });
      expect(await s.retrieval.search(userId, kb.id, 'I want my money back', 5)).toEqual([]);
      const [passage] = await s.passageEmbeddings.unembedded(model.model, since, 10);
      await s.passageEmbeddings.store(model.model, [
        { id: passage.id, vector: (await model.embed([passage.content]))[0] },
      ]);
      expect((await s.retrieval.search(userId, kb.id, 'I want my money back', 5)).map((p) => p.documentId)).toEqual([
        refunds.id,
      ]);
    });

    it('lists the passages a model has not embedded, by id after a given one, and stores their vectors', async () => {
      s = await open(new ConceptEmbeddings(SHOP_CONCEPTS));
      userId = await s.newUser();
      const kb = await s.knowledgeBases.create(userId, { name: 'Shop', description: null, status: 'empty' });
      const shipping = (await s.documents.add(userId, kb.id, text('Shipping', CORPUS.shipping)))!;
      const since = await lastPassageId();
      await s.documents.finish(shipping.id, {
        status: 'ready',
        passages: ['Shipping takes 3 days.', 'Express shipping costs a fee.', 'Parcels go by post.'],
        sizeBytes: 1,
      });
      const embedded = await ready(kb.id, text('Hours', CORPUS.hours));
      const all = await s.passageEmbeddings.unembedded('concepts', since, 10);
      expect(all.map((p) => p.content)).toEqual([
        'Shipping takes 3 days.',
        'Express shipping costs a fee.',
        'Parcels go by post.',
      ]);
      expect(all[0].id).toBeLessThan(all[1].id);
      expect(all[1].id).toBeLessThan(all[2].id);
      expect((await s.passageEmbeddings.unembedded('concepts', all[0].id, 1)).map((p) => p.content)).toEqual([
        'Express shipping costs a fee.',
      ]);
      // Another model has embedded none of them, the Hours passage included.
      expect(await s.passageEmbeddings.unembedded('another', since, 10)).toHaveLength(4);
      await s.passageEmbeddings.store('concepts', [
        { id: all[1].id, vector: [0, 1, 0] },
        { id: all[2].id, vector: [0, 1, 0] },
      ]);
      expect((await s.passageEmbeddings.unembedded('concepts', since, 10)).map((p) => p.id)).toEqual([all[0].id]);
      const found = await s.retrieval.search(userId, kb.id, 'When is my parcel delivered?', 5);
      expect(found.map((p) => [p.documentId, p.position])).toEqual([
        [shipping.id, 3],
        [shipping.id, 2],
      ]);
      // Deleted meanwhile: nothing is stored, nothing fails.
      expect(await s.documents.delete(userId, kb.id, shipping.id)).toBe(true);
      await s.passageEmbeddings.store('concepts', [{ id: all[0].id, vector: [0, 1, 0] }]);
      expect(await s.passageEmbeddings.unembedded('concepts', since, 10)).toEqual([]);
      expect(embedded.id).toBeGreaterThan(shipping.id);
    });
  });
}
