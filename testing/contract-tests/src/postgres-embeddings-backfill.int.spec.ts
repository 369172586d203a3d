import { BackfillEmbeddings, backfillEmbeddingsJob, CryptoIds, Doorbell, JobRunner } from '@voiceplane/application';
import { ConceptEmbeddings, SHOP_CONCEPTS } from '@voiceplane/adapter-fakes';
import { OpenAiEmbeddings } from '@voiceplane/adapter-openai';
import {
  PostgresJobStore,
  PostgresKnowledgeRetrieval,
  TypeormKnowledgeBaseRepository,
  TypeormKnowledgeDocumentRepository,
  TypeormPassageEmbeddings,
} from '@voiceplane/adapter-typeorm';
import { eventually, useTestDatabase } from '@voiceplane/test-env';
import { RecordingStub, StubRequest } from '@voiceplane/stand-ins/stubs/recording-stub';
import { insertUser } from './postgres-fixtures';

/**
 * The embeddings backfill as it runs in the product: a job on the PostgreSQL job table, run by the
 * job runner, embedding through the OpenAI-compatible adapter against a scripted `/embeddings`
 * server on 127.0.0.1, across a failure and a restart.
 */
const database = useTestDatabase();
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const clock = { now: () => new Date() };
const MODEL = 'text-embedding-3-small';

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start();
});
afterAll(async () => stub.close());

/** The scripted model: the shop concepts' vectors, or a 500 for the requests `failing` picks. */
function scriptModel(vectors: Map<string, number[]>, failing: (n: number) => boolean): void {
  let n = 0;
  stub.respondWith((request) => {
    const { input } = JSON.parse(request.body) as { input: string[] };
    if (failing(++n)) return { status: 500, body: { error: { message: 'overloaded', type: 'server_error' } } };
    return {
      status: 200,
      body: {
        object: 'list',
        model: MODEL,
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: vectors.get(text) })),
      },
    };
  });
}

const inputsOf = (requests: StubRequest[]) => requests.map((r) => (JSON.parse(r.body) as { input: string[] }).input);

describe('embeddings backfill through the job runner', () => {
  it('embeds passages indexed before the model was configured, resumes after a failed request and a restart, and sends none twice', async () => {
    const db = database();
    const userId = await insertUser(db);
    const kb = await new TypeormKnowledgeBaseRepository(db).create(userId, {
      name: 'Shop',
      description: null,
      status: 'empty',
    });
    const documents = new TypeormKnowledgeDocumentRepository(db);
    const doc = (await documents.add(userId, kb.id, {
      name: 'FAQ',
      description: null,
      source: { type: 'text', content: 'x' },
      language: 'en',
      sizeBytes: 1,
      file: null,
    }))!;
    const passages = Array.from({ length: 100 }, (_, i) =>
      i === 99 ? 'Refunds are paid within 14 days.' : `Passage ${i}: the shop opens on Monday at 9.`,
    );
    // Indexed while no model was configured: no vectors.
    await documents.finish(doc.id, { status: 'ready', passages, sizeBytes: 1 });
    const question = 'I want my money back';
    const concepts = new ConceptEmbeddings(SHOP_CONCEPTS);
    const texts = [...passages, question];
    const vectors = new Map<string, number[]>();
    (await concepts.embed(texts)).forEach((v, i) => vectors.set(texts[i], v));

    const model = new OpenAiEmbeddings({ baseUrl: `${stub.baseUrl}v1/`, apiKey: 'sk-test-backfill', model: MODEL });
    const jobs = new PostgresJobStore(db);
    const store = new TypeormPassageEmbeddings(db);
    const backfill = new BackfillEmbeddings(store, model, jobs, clock);
    const runner = () =>
      new JobRunner(jobs, [backfillEmbeddingsJob(() => backfill)], clock, new CryptoIds(), new Doorbell(), silent, {
        pollMs: 50,
      });
    const job = () =>
      db.one<{ attempts: number; last_error: string | null }>(
        `SELECT attempts, last_error FROM scheduled_jobs WHERE key = 'knowledge.embeddings.backfill'`,
      );

    // First process: the second request fails; the job waits for its retry when the process stops.
    scriptModel(vectors, (n) => n === 2);
    const first = runner();
    await backfill.schedule();
    first.start();
    await eventually(async () => (await job())?.last_error != null, 'the failed run to be recorded');
    await first.stop();
    expect(inputsOf(stub.requests)).toEqual([passages.slice(0, 64), passages.slice(64)]);
    expect(await job()).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('The embeddings model answered 500: overloaded'),
    });
    expect(await store.unembedded(MODEL, 0, 1_000)).toHaveLength(36);

    // The restart schedules the backfill again; only the 36 passages still without vectors are sent.
    stub.reset();
    scriptModel(vectors, () => false);
    const second = runner();
    await backfill.schedule();
    second.start();
    try {
      await eventually(async () => (await job()) === null, 'the backfill to finish');
    } finally {
      await second.stop();
    }
    expect(inputsOf(stub.requests)).toEqual([passages.slice(64)]);
    expect(await store.unembedded(MODEL, 0, 1_000)).toEqual([]);
    const stored = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM knowledge_base_chunks WHERE embedding_model = $1 AND cardinality(embedding) = 3`,
      [MODEL],
    );
    expect(Number(stored[0].n)).toBe(100);

    // Found by meaning now: no word of the question is in the passage.
    const found = await new PostgresKnowledgeRetrieval(db, model).search(userId, kb.id, question, 3);
    expect(found.map((p) => [p.documentId, p.position])).toEqual([[doc.id, 100]]);
  });
});
