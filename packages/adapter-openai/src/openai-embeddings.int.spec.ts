import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { EmbeddingsError, OpenAiEmbeddings } from './openai-embeddings';

/** The OpenAI-compatible embeddings adapter against a stub `/embeddings` API on 127.0.0.1. */

const KEY = 'sk-test-embed-0123456789';
let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({
    status: 500,
    body: { error: { message: 'no stub answer', type: 'server_error' } },
  });
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const model = (timeoutMs?: number) =>
  new OpenAiEmbeddings({ baseUrl: `${stub.baseUrl}v1/`, apiKey: KEY, model: 'text-embedding-3-small', timeoutMs });
const vectors = (...embeddings: { index: number; embedding: number[] }[]) => ({
  status: 200,
  body: {
    object: 'list',
    data: embeddings.map((e) => ({ object: 'embedding', ...e })),
    model: 'text-embedding-3-small',
    usage: { prompt_tokens: 8, total_tokens: 8 },
  },
});

describe('OpenAiEmbeddings', () => {
  it('posts the texts to /embeddings with the model and key, and answers one vector per text in input order', async () => {
    stub.answer(vectors({ index: 1, embedding: [0, 1] }, { index: 0, embedding: [0.5, -0.25] }));
    expect(await model().embed(['Refunds take 14 days.', 'We open at 9.'])).toEqual([
      [0.5, -0.25],
      [0, 1],
    ]);
    const [sent] = stub.requests;
    expect([sent.method, sent.path, sent.authorization]).toEqual(['POST', '/v1/embeddings', `Bearer ${KEY}`]);
    expect(JSON.parse(sent.body)).toEqual({
      model: 'text-embedding-3-small',
      input: ['Refunds take 14 days.', 'We open at 9.'],
    });
    expect(await model().embed([])).toEqual([]);
    expect(stub.requests).toHaveLength(1);
  });

  it('throws a plain reason, never the key, on an error status, a wrong count or a malformed vector', async () => {
    stub.answer(
      { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } },
      vectors({ index: 0, embedding: [1] }),
      vectors({ index: 0, embedding: ['x' as unknown as number] }),
    );
    await expect(model().embed(['a'])).rejects.toThrow(
      new EmbeddingsError('The embeddings model answered 401: Incorrect API key provided'),
    );
    await expect(model().embed(['a', 'b'])).rejects.toThrow(
      'The embeddings model answered without one vector per text',
    );
    const failed = await model()
      .embed(['a'])
      .catch((e: Error) => e);
    expect(failed).toBeInstanceOf(EmbeddingsError);
    expect(JSON.stringify(failed) + String(failed)).not.toContain(KEY);
  });

  it('says so when the server cannot be reached', async () => {
    const away = new OpenAiEmbeddings({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY, model: 'm' });
    await expect(away.embed(['a'])).rejects.toThrow('The embeddings model could not be reached');
  });
});
