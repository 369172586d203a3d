import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { OpenAiReplyGenerator, ReplyGeneratorError } from './openai-reply-generator';

/**
 * The reply generator streaming (`stream: true`) against a stand-in on 127.0.0.1 that answers as
 * OpenAI's streaming Chat Completions do: `data:` chunks of `chat.completion.chunk`, then `[DONE]`.
 */

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({ status: 500, body: { error: { message: 'no stub answer' } } });
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const generator = (timeoutMs?: number, baseUrl = `${stub.baseUrl}v1/`) =>
  new OpenAiReplyGenerator({ baseUrl, apiKey: 'sk-test-stream', defaultModel: 'gpt-4o-mini', timeoutMs });
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-s1',
  object: 'chat.completion.chunk',
  created: 1741570283,
  model: 'gpt-4o-mini-2024-07-18',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});
const request = (onText: (delta: string) => void) => ({
  model: '',
  temperature: 0.2,
  messages: [{ role: 'user' as const, content: 'Where is my order?' }],
  tools: [],
  onText,
});

describe('the streaming reply generator', () => {
  it('asks for a stream, hands each piece over as it comes, and answers the whole text', async () => {
    stub.answer({
      status: 200,
      gapMs: 30,
      events: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Your order' }),
        chunk({ content: ' ships' }),
        chunk({ content: ' Friday.' }),
        chunk({}, 'stop'),
        '[DONE]',
      ],
    });
    const pieces: { text: string; at: number }[] = [];
    const started = Date.now();
    const turn = await generator().nextTurn(request((text) => pieces.push({ text, at: Date.now() - started })));
    expect(turn).toEqual({ content: 'Your order ships Friday.', toolCalls: [] });
    expect(pieces.map((p) => p.text)).toEqual(['Your order', ' ships', ' Friday.']);
    // Handed over as they came, not all at the end.
    expect(pieces[2].at - pieces[0].at).toBeGreaterThanOrEqual(40);
    expect(JSON.parse(stub.requests[0].body)).toEqual(
      expect.objectContaining({ model: 'gpt-4o-mini', stream: true, temperature: 0.2 }),
    );
  });

  it('puts function calls together from their pieces', async () => {
    stub.answer({
      status: 200,
      events: [
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'check_order', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"order_' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: 'id":"A-1"}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_2', function: { name: 'end_call', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
        '[DONE]',
      ],
    });
    const pieces: string[] = [];
    expect(await generator().nextTurn(request((t) => pieces.push(t)))).toEqual({
      content: null,
      toolCalls: [
        { id: 'call_1', name: 'check_order', arguments: '{"order_id":"A-1"}' },
        { id: 'call_2', name: 'end_call', arguments: '{}' },
      ],
    });
    expect(pieces).toEqual([]);
  });

  it('reads a server that answers one JSON completion instead of a stream', async () => {
    stub.answer({
      status: 200,
      body: { choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer.' } }] },
    });
    const pieces: string[] = [];
    expect(await generator().nextTurn(request((t) => pieces.push(t)))).toEqual({
      content: 'Whole answer.',
      toolCalls: [],
    });
    expect(pieces).toEqual(['Whole answer.']);
  });

  it("throws the API's error, an error chunk, an empty stream and a stream that stalls past the timeout", async () => {
    stub.answer({ status: 429, body: { error: { message: 'Rate limit reached' } } });
    await expect(generator().nextTurn(request(() => undefined))).rejects.toThrow(
      new ReplyGeneratorError('The reply generator answered 429: Rate limit reached'),
    );
    stub.answer({ status: 200, events: [chunk({ content: 'Hal' }), { error: { message: 'overloaded' } }] });
    await expect(generator().nextTurn(request(() => undefined))).rejects.toThrow(
      'The reply generator answered an error: overloaded',
    );
    stub.answer({ status: 200, events: [chunk({ role: 'assistant', content: '' }), '[DONE]'] });
    await expect(generator().nextTurn(request(() => undefined))).rejects.toThrow(
      'The reply generator answered without a reply',
    );
    stub.answer({ status: 200, gapMs: 2_000, events: [chunk({ content: 'slow' }), chunk({ content: 'er' })] });
    await expect(generator(300).nextTurn(request(() => undefined))).rejects.toThrow('The reply generator timed out');
  });

  it('throws when the server drops the connection mid-reply', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ content: 'Half a' }))}\n\n`);
      setTimeout(() => res.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      await expect(generator(5_000, base).nextTurn(request(() => undefined))).rejects.toThrow(ReplyGeneratorError);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
