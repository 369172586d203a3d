import { Passage } from './documents';

/** The constant of reciprocal rank fusion: large enough that one list's first place does not drown the other list. */
export const RRF_K = 60;
/** Candidates each ranking contributes to the fusion. */
export const RANKING_CANDIDATES = 50;
/**
 * Passages less similar than this to the question are not candidates at all: embeddings make every
 * passage somewhat similar to every question, and a question about zebras should find nothing.
 */
export const MIN_SIMILARITY = 0.3;

/**
 * Reciprocal rank fusion of rankings that are each best first (full text, vector similarity): a
 * passage scores the sum of 1 / (RRF_K + its place) over the lists it is in, so one found by both
 * beats one found by either alone. Ties go to the earlier document and passage; `score` becomes the fused score.
 */
export function fuseRankings(rankings: readonly (readonly Passage[])[], limit: number): Passage[] {
  const fused = new Map<string, { passage: Passage; score: number }>();
  for (const ranking of rankings) {
    ranking.forEach((p, i) => {
      const key = `${p.documentId}:${p.position}`;
      const entry = fused.get(key) ?? { passage: p, score: 0 };
      entry.score += 1 / (RRF_K + i + 1);
      fused.set(key, entry);
    });
  }
  return [...fused.values()]
    .sort(
      (a, b) =>
        b.score - a.score || a.passage.documentId - b.passage.documentId || a.passage.position - b.passage.position,
    )
    .slice(0, limit)
    .map(({ passage, score }) => ({ ...passage, score }));
}

/** Cosine similarity; 0 when either vector is empty or all zeros, or their lengths differ (another model). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
