import { TextEmbeddings } from '@voiceplane/application';

/**
 * A deterministic embeddings model for tests: one dimension per concept, a text's vector counts
 * the words of each concept it contains. Words that mean the same (`refund`, `money`, `back`) land
 * on the same dimension, so similarity finds what full text cannot, and every run ranks alike.
 */
export class ConceptEmbeddings implements TextEmbeddings {
  readonly calls: string[][] = [];

  /** `model`: the name its vectors are stored under (a second instance under another name stands for another model). */
  constructor(
    private readonly concepts: readonly (readonly string[])[],
    readonly model = 'concepts',
  ) {}

  async embed(texts: readonly string[]): Promise<number[][]> {
    this.calls.push([...texts]);
    return texts.map((text) => {
      const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
      return this.concepts.map((concept) => words.filter((w) => concept.some((c) => w.startsWith(c))).length);
    });
  }
}

/** Concepts of the shop corpus the contract suites use. */
export const SHOP_CONCEPTS: readonly (readonly string[])[] = [
  ['refund', 'money', 'reimburs', 'back'],
  ['ship', 'deliver', 'parcel', 'express'],
  ['open', 'hour', 'close', 'monday', 'saturday'],
];
