import { OpenAiReplyGenerator } from '@voiceplane/adapter-openai';
import { RecordingStub, StubAnswer, StubRequest } from '@voiceplane/stand-ins/stubs/recording-stub';
import { replyGeneratorContract } from './reply-generator.contract';

/**
 * A Chat Completions server as a model behaves: it calls the first function offered until a
 * result comes back, answers text otherwise (in chunks when asked to stream), and answers an
 * evaluation with a JSON object naming every field it was asked for.
 */
function model(request: StubRequest): StubAnswer {
  const body = JSON.parse(request.body) as {
    tools?: { function: { name: string } }[];
    messages: { role: string }[];
    response_format?: unknown;
    stream?: boolean;
  };
  if (body.stream && !body.tools?.length) {
    const delta = (d: object, finish: string | null = null) => ({
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    const words = 'Yes, we are open from 9 to 17.'.split(/(?= )/);
    return { status: 200, events: [...words.map((content) => delta({ content })), delta({}, 'stop'), '[DONE]'] };
  }
  const message = body.response_format
    ? {
        role: 'assistant',
        content: JSON.stringify({ status: true, summary: 'The customer asked about order A-1.', order_id: 'A-1' }),
      }
    : body.tools?.length && !body.messages.some((m) => m.role === 'tool')
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_stub_1',
              type: 'function',
              function: { name: body.tools[0].function.name, arguments: '{"order_id":"A-1"}' },
            },
          ],
        }
      : { role: 'assistant', content: 'Yes, we are open from 9 to 17.' };
  return {
    status: 200,
    body: { id: 'chatcmpl-stub', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }] },
  };
}

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({
    status: 500,
    body: { error: { message: 'no stub answer', type: 'server_error' } },
  });
});
afterAll(async () => stub.close());

replyGeneratorContract('OpenAI-compatible (Chat Completions stub)', () => {
  stub.reset();
  stub.respondWith(model);
  const options = { apiKey: 'sk-test-0123456789', defaultModel: 'gpt-4o-mini', timeoutMs: 5_000 };
  return {
    generator: new OpenAiReplyGenerator({ ...options, baseUrl: `${stub.baseUrl}v1/` }),
    // Port 9 (discard) on 127.0.0.1: nothing listens, the connection is refused at once.
    unreachable: new OpenAiReplyGenerator({ ...options, baseUrl: 'http://127.0.0.1:9/v1/' }),
  };
});
