import { RecordingStub } from '@voiceplane/stand-ins/stubs/recording-stub';
import { OpenAiReplyGenerator, ReplyGeneratorError } from './openai-reply-generator';

/** The OpenAI-compatible reply generator against a stub Chat Completions API on 127.0.0.1. */

const KEY = 'sk-test-0123456789';

let stub: RecordingStub;
beforeAll(async () => {
  stub = await RecordingStub.start({
    status: 500,
    body: { error: { message: 'no stub answer', type: 'server_error' } },
  });
});
afterAll(async () => stub.close());
beforeEach(() => stub.reset());

const generator = (timeoutMs?: number) =>
  new OpenAiReplyGenerator({ baseUrl: `${stub.baseUrl}v1/`, apiKey: KEY, defaultModel: 'gpt-4o-mini', timeoutMs });
const completion = (content: unknown) => ({
  status: 200,
  body: {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741570283,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
  },
});
const request = {
  model: 'gpt-4.1-mini',
  temperature: 0.3,
  messages: [
    { role: 'system' as const, content: 'You are the assistant of Acme.' },
    { role: 'user' as const, content: 'Hi, are you open today?' },
    { role: 'assistant' as const, content: 'Yes, from 9 to 17.' },
    { role: 'user' as const, content: 'And tomorrow?' },
  ],
  tools: [],
};
const checkOrder = {
  name: 'check_order',
  description: 'Look up an order',
  parameters: {
    type: 'object' as const,
    properties: { order_id: { type: 'string', description: 'The order number' } },
    required: ['order_id'],
  },
};
const toolCallAnswer = (calls: unknown[], content: string | null = null) => ({
  status: 200,
  body: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: calls }, finish_reason: 'tool_calls' }],
  },
});

describe('OpenAI-compatible reply generator', () => {
  it('posts model, temperature and the messages as given; answers the trimmed text', async () => {
    stub.answer(completion('  Tomorrow too, 9 to 17.  '));
    expect(await generator().nextTurn(request)).toEqual({ content: 'Tomorrow too, 9 to 17.', toolCalls: [] });
    expect(stub.requests[0]).toEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/v1/chat/completions',
        authorization: `Bearer ${KEY}`,
        contentType: 'application/json',
      }),
    );
    expect(JSON.parse(stub.requests[0].body)).toEqual({
      model: 'gpt-4.1-mini',
      temperature: 0.3,
      messages: request.messages,
    });
  });

  it('uses the configured model when the request names none', async () => {
    stub.answer(completion('Hello'));
    await generator().nextTurn({ ...request, model: '' });
    expect(JSON.parse(stub.requests[0].body).model).toBe('gpt-4o-mini');
  });

  it('offers the functions, reads the calls the model makes, and sends calls and results back in the wire shape', async () => {
    stub.answer(
      toolCallAnswer(
        [
          { id: 'call_abc', type: 'function', function: { name: 'check_order', arguments: '{"order_id":"A-1"}' } },
          { type: 'function', function: { name: 'end_call' } },
          { id: 'call_x', type: 'function', function: { arguments: '{}' } },
        ],
        '  One moment.  ',
      ),
    );
    const turn = await generator().nextTurn({ ...request, tools: [checkOrder] });
    expect(turn).toEqual({
      content: 'One moment.',
      toolCalls: [
        { id: 'call_abc', name: 'check_order', arguments: '{"order_id":"A-1"}' },
        { id: 'call_1', name: 'end_call', arguments: '' },
      ],
    });
    expect(JSON.parse(stub.requests[0].body).tools).toEqual([{ type: 'function', function: checkOrder }]);

    stub.answer(completion('It shipped.'));
    await generator().nextTurn({
      ...request,
      tools: [checkOrder],
      messages: [
        ...request.messages,
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'call_abc', name: 'check_order', arguments: '{"order_id":"A-1"}' }],
        },
        { role: 'tool', toolCallId: 'call_abc', content: '{"status":"shipped"}' },
      ],
    });
    expect(JSON.parse(stub.requests[1].body).messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_abc', type: 'function', function: { name: 'check_order', arguments: '{"order_id":"A-1"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: '{"status":"shipped"}' },
    ]);
  });

  it('sends no tools key when there are no functions', async () => {
    stub.answer(completion('Hello'));
    await generator().nextTurn(request);
    expect(JSON.parse(stub.requests[0].body)).not.toHaveProperty('tools');
  });

  it('throws on an error answer with the API message, on an empty reply, and on a timeout; never with the key', async () => {
    stub.answer(
      {
        status: 429,
        body: {
          error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests', code: 'rate_limit_exceeded' },
        },
      },
      completion(null),
      { status: 200, body: { choices: [] } },
      completion('   '),
      { ...completion('late'), delayMs: 2_000 },
    );
    await expect(generator().nextTurn(request)).rejects.toEqual(
      new ReplyGeneratorError('The reply generator answered 429: Rate limit reached for gpt-4o-mini'),
    );
    await expect(generator().nextTurn(request)).rejects.toEqual(
      new ReplyGeneratorError('The reply generator answered without a reply'),
    );
    await expect(generator().nextTurn(request)).rejects.toEqual(
      new ReplyGeneratorError('The reply generator answered without a reply'),
    );
    await expect(generator().nextTurn(request)).rejects.toEqual(
      new ReplyGeneratorError('The reply generator answered without a reply'),
    );
    const timeout = await generator(100)
      .nextTurn(request)
      .catch((e: Error) => e);
    expect(timeout).toEqual(new ReplyGeneratorError('The reply generator timed out'));
    expect(`${JSON.stringify(timeout)} ${(timeout as Error).stack}`).not.toContain(KEY);
  });

  it('throws when the API cannot be reached', async () => {
    const closed = await RecordingStub.start();
    const url = closed.baseUrl;
    await closed.close();
    await expect(
      new OpenAiReplyGenerator({ baseUrl: url, apiKey: KEY, defaultModel: 'm' }).nextTurn(request),
    ).rejects.toEqual(new ReplyGeneratorError('The reply generator could not be reached'));
  });

  describe('conversation evaluation', () => {
    const evaluation = {
      model: 'gpt-4.1-mini',
      schema: [
        { name: 'customer_name', type: 'string' as const, description: "The customer's name" },
        { name: 'order_id', type: 'string' as const, description: null },
      ],
      transcript: [
        { role: 'user' as const, content: 'Hi, I am Ann, where is order A-1001?' },
        { role: 'assistant' as const, content: 'It ships today.' },
      ],
    };

    it('asks for a JSON object at temperature 0 with the schema named and the transcript as one message; answers the object', async () => {
      stub.answer(
        completion('{"customer_name":"Ann","order_id":"A-1001","status":true,"summary":"Asked about order A-1001."}'),
      );

      expect(await generator().evaluateConversation(evaluation)).toEqual({
        customer_name: 'Ann',
        order_id: 'A-1001',
        status: true,
        summary: 'Asked about order A-1001.',
      });
      const body = JSON.parse(stub.requests[0].body);
      expect(body).toEqual(
        expect.objectContaining({ model: 'gpt-4.1-mini', temperature: 0, response_format: { type: 'json_object' } }),
      );
      expect(body.messages).toHaveLength(2);
      expect(body.messages[0].role).toBe('system');
      expect(body.messages[0].content).toContain(
        '- "customer_name" (string): The customer\'s name\n- "order_id" (string)',
      );
      expect(body.messages[1]).toEqual({
        role: 'user',
        content: 'Customer: Hi, I am Ann, where is order A-1001?\nAssistant: It ships today.',
      });
    });

    it('throws on an answer that is not a JSON object, and on an error answer', async () => {
      stub.answer(completion('The customer is Ann.'), completion('[1,2]'), {
        status: 500,
        body: { error: { message: 'overloaded' } },
      });
      await expect(generator().evaluateConversation(evaluation)).rejects.toEqual(
        new ReplyGeneratorError('The reply generator answered the evaluation without JSON'),
      );
      await expect(generator().evaluateConversation(evaluation)).rejects.toEqual(
        new ReplyGeneratorError('The reply generator answered the evaluation without a JSON object'),
      );
      await expect(generator().evaluateConversation(evaluation)).rejects.toEqual(
        new ReplyGeneratorError('The reply generator answered 500: overloaded'),
      );
    });
  });
});
