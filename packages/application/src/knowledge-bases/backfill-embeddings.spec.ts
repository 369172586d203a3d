import {
  ConceptEmbeddings,
  InMemoryJobStore,
  InMemoryKnowledgeBases,
  ManualClock,
  SHOP_CONCEPTS,
} from '@voiceplane/adapter-fakes';
import {
  BACKFILL_EMBEDDINGS_JOB,
  BACKFILL_EMBEDDINGS_KEY,
  BackfillEmbeddings,
  backfillEmbeddingsJob,
} from './backfill-embeddings';

const USER = 3;

/** A store whose passages were indexed before a model was configured: `count` passages, none embedded. */
async function scene(count: number) {
  const clock = new ManualClock(new Date('2026-11-26T10:00:00Z'));
  const model = new ConceptEmbeddings(SHOP_CONCEPTS);
  const store = new InMemoryKnowledgeBases(clock, model);
  const jobs = new InMemoryJobStore();
  const kb = await store.knowledgeBaseRepository.create(USER, { name: 'Shop', description: null, status: 'empty' });
  const doc = (await store.documentRepository.add(USER, kb.id, {
    name: 'FAQ',
    description: null,
    source: { type: 'text', content: 'x' },
    language: 'en',
    sizeBytes: 1,
    file: null,
  }))!;
  const passages = Array.from({ length: count }, (_, i) =>
    i === count - 1 ? 'Refunds are paid within 14 days.' : `Passage ${i} about opening hours.`,
  );
  await store.documentRepository.finish(doc.id, { status: 'ready', passages, sizeBytes: 1 });
  const sent = () => model.calls.flat();
  return {
    store,
    model,
    jobs,
    kb: kb.id,
    doc: doc.id,
    sent,
    backfill: new BackfillEmbeddings(store.passageEmbeddings, model, jobs, clock),
  };
}

describe('BackfillEmbeddings', () => {
  it('embeds the passages the model has not embedded, 64 a request, and then searches find them by meaning', async () => {
    const { store, model, kb, doc, backfill } = await scene(150);
    expect(await store.retrieval.search(USER, kb, 'I want my money back', 5)).toEqual([]);
    model.calls.length = 0;
    expect(await backfill.run(0)).toMatchObject({ embedded: 150, done: true });
    expect(model.calls.map((c) => c.length)).toEqual([64, 64, 22]);
    expect(await store.passageEmbeddings.unembedded(model.model, 0, 10)).toEqual([]);
    expect(
      (await store.retrieval.search(USER, kb, 'I want my money back', 5)).map((p) => [p.documentId, p.position]),
    ).toEqual([[doc, 150]]);
    // Nothing left: a second backfill (the next start) sends nothing.
    model.calls.length = 0;
    expect(await backfill.run(0)).toMatchObject({ embedded: 0, done: true });
    expect(model.calls).toEqual([]);
  });

  it('stops after eight requests a run and schedules the rest from where it stopped, sending no passage twice', async () => {
    const { model, jobs, sent, backfill } = await scene(600);
    const first = await backfill.run(0);
    expect(first).toMatchObject({ embedded: 512, done: false });
    const [next] = jobs.jobs();
    expect(next).toMatchObject({
      kind: BACKFILL_EMBEDDINGS_JOB,
      key: BACKFILL_EMBEDDINGS_KEY,
      payload: { after_id: first.afterId },
    });
    await backfillEmbeddingsJob(() => backfill).handle({
      id: next.id,
      kind: next.kind,
      key: next.key,
      payload: next.payload,
      attempts: 1,
      leaseToken: 't',
    });
    expect(model.calls.map((c) => c.length)).toEqual([64, 64, 64, 64, 64, 64, 64, 64, 64, 24]);
    expect(new Set(sent()).size).toBe(600);
  });

  it('keeps what a failed run stored: the retry sends only the passages still without vectors', async () => {
    const { store, model, sent, backfill } = await scene(100);
    let requests = 0;
    const flaky = {
      model: model.model,
      embed: (texts: readonly string[]) =>
        ++requests === 2 ? Promise.reject(new Error('model away')) : model.embed(texts),
    };
    const failing = new BackfillEmbeddings(
      store.passageEmbeddings,
      flaky,
      new InMemoryJobStore(),
      new ManualClock(new Date()),
    );
    await expect(failing.run(0)).rejects.toThrow('model away');
    expect(await store.passageEmbeddings.unembedded(model.model, 0, 1_000)).toHaveLength(36);
    expect(await backfill.run(0)).toMatchObject({ embedded: 36, done: true });
    expect(new Set(sent()).size).toBe(100);
    expect(sent()).toHaveLength(100);
  });

  it('schedules itself from the first passage, replacing a backfill that waits', async () => {
    const { jobs, backfill } = await scene(1);
    await jobs.schedule({
      kind: BACKFILL_EMBEDDINGS_JOB,
      key: BACKFILL_EMBEDDINGS_KEY,
      payload: { after_id: 40 },
      runAt: new Date('2030-01-01T00:00:00Z'),
    });
    await backfill.schedule();
    expect(jobs.jobs()).toEqual([
      expect.objectContaining({
        key: BACKFILL_EMBEDDINGS_KEY,
        payload: { after_id: 0 },
        runAt: new Date('2026-11-26T10:00:00Z'),
      }),
    ]);
  });
});
