import { Clock } from '../ports';
import { JobHandler, JobScheduler } from '../events';
import { PassageEmbeddings, TextEmbeddings } from './ports';

export const BACKFILL_EMBEDDINGS_JOB = 'knowledge.embeddings.backfill';
/** One backfill at a time: scheduling it again (each start does) replaces the one waiting. */
export const BACKFILL_EMBEDDINGS_KEY = 'knowledge.embeddings.backfill';

/** Passages per embeddings request: well under the inputs an OpenAI-compatible endpoint takes at once. */
export const EMBEDDING_BATCH = 64;
/**
 * Requests per run of the job. A run must end well within the runner's lease (a minute), or a
 * second runner would take the same passages; the rest is scheduled as the next run.
 */
const BATCHES_PER_RUN = 8;

/** Texts to vectors, `EMBEDDING_BATCH` per request; throws when the model answers the wrong count. */
export async function embedInBatches(model: TextEmbeddings, texts: readonly string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  for (let i = 0; i < texts.length; i += EMBEDDING_BATCH) {
    const batch = texts.slice(i, i + EMBEDDING_BATCH);
    const got = await model.embed(batch);
    if (got.length !== batch.length)
      throw new Error(`The embeddings model answered ${got.length} vectors for ${batch.length} passages.`);
    vectors.push(...got);
  }
  return vectors;
}

export interface BackfillProgress {
  /** The last passage looked at; the next run starts after it. */
  readonly afterId: number;
  readonly embedded: number;
  readonly done: boolean;
}

/**
 * Embeds, with the configured model, the passages it has not embedded: those stored before a model
 * was configured, and those another model embedded (their vectors cannot be compared with its
 * own). Runs as a job, in batches by passage id; a run that has more to do schedules the next one
 * from where it stopped, so a restart (or a failed request, retried by the runner) resumes there.
 * Passages already embedded by the model are never sent again.
 */
export class BackfillEmbeddings {
  constructor(
    private readonly passages: PassageEmbeddings,
    private readonly model: TextEmbeddings,
    private readonly scheduler: JobScheduler,
    private readonly clock: Clock,
  ) {}

  /** Schedules a backfill from the first passage (at start, when a model is configured). */
  async schedule(): Promise<void> {
    await this.scheduler.schedule({
      kind: BACKFILL_EMBEDDINGS_JOB,
      key: BACKFILL_EMBEDDINGS_KEY,
      payload: { after_id: 0 },
      runAt: this.clock.now(),
    });
  }

  async run(afterId: number): Promise<BackfillProgress> {
    let last = afterId;
    let embedded = 0;
    for (let i = 0; i < BATCHES_PER_RUN; i++) {
      const batch = await this.passages.unembedded(this.model.model, last, EMBEDDING_BATCH);
      if (batch.length === 0) return { afterId: last, embedded, done: true };
      const vectors = await embedInBatches(
        this.model,
        batch.map((p) => p.content),
      );
      await this.passages.store(
        this.model.model,
        batch.map((p, j) => ({ id: p.id, vector: vectors[j] })),
      );
      last = batch[batch.length - 1].id;
      embedded += batch.length;
      if (batch.length < EMBEDDING_BATCH) return { afterId: last, embedded, done: true };
    }
    await this.scheduler.schedule({
      kind: BACKFILL_EMBEDDINGS_JOB,
      key: BACKFILL_EMBEDDINGS_KEY,
      payload: { after_id: last },
      runAt: this.clock.now(),
    });
    return { afterId: last, embedded, done: false };
  }
}

export function backfillEmbeddingsJob(backfill: () => BackfillEmbeddings): JobHandler {
  return {
    kind: BACKFILL_EMBEDDINGS_JOB,
    handle: async (job) =>
      void (await backfill().run(Number((job.payload as { after_id?: unknown } | null)?.after_id ?? 0))),
  };
}
