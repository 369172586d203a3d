import { AxiosInstance } from 'axios';
import { openAiHttp, postJson } from './openai-http';
import { TextEmbeddings } from '@voiceplane/application';

export interface EmbeddingsOptions {
  /** EMBEDDINGS_BASE_URL, e.g. `https://api.openai.com/v1`: any server speaking the `/embeddings` API. */
  readonly baseUrl: string;
  /** EMBEDDINGS_API_KEY (OPENAI_API_KEY when unset), sent as a Bearer token. */
  readonly apiKey: string;
  /** EMBEDDINGS_MODEL, e.g. `text-embedding-3-small`. */
  readonly model: string;
  /** Per request (default 30 s: a batch of passages is embedded at once). */
  readonly timeoutMs?: number;
}

export class EmbeddingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingsError';
  }
}

/**
 * Passages and questions to vectors through an OpenAI-compatible embeddings API. Every failure
 * throws without the request (it carries the key): the indexing job is retried, and a search
 * fails rather than ranking on half the information.
 */
export class OpenAiEmbeddings implements TextEmbeddings {
  private readonly http: AxiosInstance;
  readonly model: string;

  constructor(private readonly options: EmbeddingsOptions) {
    this.http = openAiHttp(options.baseUrl, options.apiKey, options.timeoutMs ?? 30_000);
    this.model = options.model;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const body = await postJson(
      this.http,
      'embeddings',
      { model: this.options.model, input: texts },
      'The embeddings model',
      (reason) => new EmbeddingsError(reason),
    );
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data) || data.length !== texts.length)
      throw new EmbeddingsError('The embeddings model answered without one vector per text');
    // `index` says which input a vector belongs to; the API does not promise the order.
    const vectors: number[][] = new Array(texts.length);
    data.forEach((item: unknown, i) => {
      const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      const at = typeof index === 'number' ? index : i;
      if (
        !Array.isArray(embedding) ||
        embedding.length === 0 ||
        !embedding.every((x) => typeof x === 'number' && Number.isFinite(x)) ||
        at < 0 ||
        at >= texts.length
      ) {
        throw new EmbeddingsError('The embeddings model answered a vector that is not a list of numbers');
      }
      vectors[at] = embedding as number[];
    });
    if (vectors.some((v) => v === undefined))
      throw new EmbeddingsError('The embeddings model answered without one vector per text');
    return vectors;
  }
}
