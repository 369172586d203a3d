/** Phrases spoken while the model thinks, by the tone of the last customer turn. */
export const FILLER_CATEGORIES = ['positive', 'negative', 'question', 'neutral'] as const;
export type FillerCategory = (typeof FILLER_CATEGORIES)[number];
export type FillerConfig = { readonly [C in FillerCategory]: readonly string[] };

export const MAX_FILLERS_PER_CATEGORY = 20;
export const MAX_FILLER_LENGTH = 100;

/** Categories the client left out are stored as empty lists, so readers never meet a gap. */
export function fillerConfig(sent: Partial<Record<FillerCategory, readonly string[]>>): FillerConfig {
  return {
    positive: sent.positive ?? [],
    negative: sent.negative ?? [],
    question: sent.question ?? [],
    neutral: sent.neutral ?? [],
  };
}
