import { InMemoryCatalogRepository, ManualClock, RecordingLogger, SAMPLE_CATALOG } from '@voiceplane/adapter-fakes';
import {
  ASSISTANT_DEFAULTS,
  buildRuntimeConfig,
  BuiltInTool,
  RuntimeConfig,
  RuntimeTool,
  ToolCallResult,
} from '@voiceplane/domain';
import { BuiltInRunner, ConversationBrain, FALLBACK_REPLY, MAX_MODEL_ROUNDS, TurnRequest } from './conversation-brain';
import { ModelTurn, ModelTurnRequest, ReplyGenerator } from './ports';

const NOW = new Date('2026-11-26T15:30:00.000Z');

const endCall: BuiltInTool = { type: 'end_call', data: { description: null } };
const setup: RuntimeConfig = buildRuntimeConfig({
  direction: 'outbound',
  channel: 'phone',
  customerPhone: '+14155551234',
  assistantId: 101,
  line: null,
  assistant: {
    ...ASSISTANT_DEFAULTS,
    name: 'Support',
    voiceId: 1,
    llmModelId: 2,
    multimodalModelId: null,
    knowledgebaseMode: null,
    llmTemperature: 0.4,
    systemPrompt: 'You help {{customer_name}}.',
    tools: [endCall],
  },
  languageCode: 'en',
  secondaryLanguageCodes: [],
  variables: { customer_name: 'Ann' },
  tools: [
    {
      id: 7,
      name: 'check_order',
      description: 'Look up an order',
      schema: [{ name: 'order_id', type: 'string', description: 'The order number', required: true }],
    },
  ],
});

/** A model that answers from a script and remembers what it was asked (a copy: the brain keeps appending). */
class ScriptedModel implements ReplyGenerator {
  readonly requests: ModelTurnRequest[] = [];
  constructor(private readonly script: Array<ModelTurn | Error>) {}
  async nextTurn(request: ModelTurnRequest): Promise<ModelTurn> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const next = this.script.shift() ?? { content: 'out of script', toolCalls: [] };
    if (next instanceof Error) throw next;
    return next;
  }
  async evaluateConversation(): Promise<Record<string, unknown>> {
    return {};
  }
}

const call = (name: string, args: unknown = {}, id = `call_${name}`) => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
const result = (over: Partial<ToolCallResult> = {}): ToolCallResult => ({
  ok: true,
  statusCode: 200,
  content: '{"status":"shipped"}',
  truncated: false,
  durationMs: 12,
  error: null,
  warnings: [],
  ...over,
});

function scene(script: Array<ModelTurn | Error>, tools: Array<ToolCallResult> = []) {
  const model = new ScriptedModel(script);
  const log = new RecordingLogger();
  const brain = new ConversationBrain(model, new InMemoryCatalogRepository(SAMPLE_CATALOG), new ManualClock(NOW), log);
  const ran: Array<{ tool: RuntimeTool; params: unknown }> = [];
  const builtIns: Array<{ builtin: BuiltInTool; args: unknown }> = [];
  const runBuiltIn: BuiltInRunner = async (builtin, args) => {
    builtIns.push({ builtin, args });
    return { content: '{"ok":true}', end: { reason: 'assistant_ended' } };
  };
  const request: TurnRequest = {
    setup,
    history: [{ role: 'user', content: 'Where is my order A-1?' }],
    logContext: { call_id: 4812 },
    runBuiltIn,
    runTool: async (tool, params) => {
      ran.push({ tool, params });
      return tools.shift() ?? result();
    },
  };
  return { model, log, brain, ran, builtIns, request };
}

describe('the conversation brain: one turn', () => {
  it("answers with the instructions first, the assistant's model and temperature, and every function", async () => {
    const { model, brain, request } = scene([{ content: '  Hello Ann.  ', toolCalls: [] }]);
    expect(await brain.turn(request)).toEqual({ reply: 'Hello Ann.', toolCalls: [], end: null, fallback: false });
    const [asked] = model.requests;
    expect(asked.model).toBe(SAMPLE_CATALOG.models.find((m) => m.id === 2)?.name);
    expect(asked.temperature).toBe(0.4);
    expect(asked.messages[0]).toEqual({
      role: 'system',
      content: expect.stringMatching(/^You help Ann\.\n\nSpeak English \(en\)\.\n\nThe current local time is Thursday/),
    });
    expect(asked.messages.slice(1)).toEqual(request.history);
    expect(asked.tools.map((t) => t.name)).toEqual(['check_order', 'end_call']);
  });

  it('runs a mid-call tool through the runner, gives the model the result, and answers with its next text', async () => {
    const { model, brain, ran, request } = scene([
      { content: null, toolCalls: [call('check_order', { order_id: 'A-1' })] },
      { content: 'It shipped.', toolCalls: [] },
    ]);
    const turn = await brain.turn(request);
    expect(turn).toEqual({
      reply: 'It shipped.',
      end: null,
      fallback: false,
      toolCalls: [
        {
          name: 'check_order',
          kind: 'tool',
          ok: true,
          statusCode: 200,
          content: '{"status":"shipped"}',
          arguments: { order_id: 'A-1' },
        },
      ],
    });
    expect(ran).toEqual([{ tool: expect.objectContaining({ id: 7 }), params: { order_id: 'A-1' } }]);
    expect(model.requests[1].messages.slice(-2)).toEqual([
      { role: 'assistant', content: null, toolCalls: [call('check_order', { order_id: 'A-1' })] },
      { role: 'tool', toolCallId: 'call_check_order', content: '{"status":"shipped"}' },
    ]);
  });

  it('tells the model when a tool timed out or answered 500, and the conversation goes on', async () => {
    const timeout = result({
      ok: false,
      statusCode: null,
      error: 'timeout',
      content: '{"error":"timeout","message":"The tool did not answer within 10 seconds."}',
    });
    const failed = result({
      ok: false,
      statusCode: 500,
      error: 'http_error',
      content: '{"error":"http_error","status":500,"body":"boom"}',
    });
    const { model, brain, request } = scene(
      [
        {
          content: null,
          toolCalls: [call('check_order', { order_id: 'A-1' }, 'c1'), call('check_order', { order_id: 'A-2' }, 'c2')],
        },
        { content: 'The order system is not answering right now.', toolCalls: [] },
      ],
      [timeout, failed],
    );
    const turn = await brain.turn(request);
    expect(turn.reply).toBe('The order system is not answering right now.');
    expect(turn.end).toBeNull();
    expect(turn.toolCalls.map((c) => [c.ok, c.statusCode])).toEqual([
      [false, null],
      [false, 500],
    ]);
    expect(model.requests[1].messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'c1', content: timeout.content },
      { role: 'tool', toolCallId: 'c2', content: failed.content },
    ]);
  });

  it('answers a made-up function and arguments that are not an object without running anything', async () => {
    const { model, brain, ran, request } = scene([
      { content: null, toolCalls: [call('delete_everything'), call('check_order', '{"order_id":', 'c2')] },
      { content: 'Let me try that differently.', toolCalls: [] },
    ]);
    const turn = await brain.turn(request);
    expect(ran).toEqual([]);
    expect(turn.toolCalls).toEqual([
      expect.objectContaining({ name: 'delete_everything', kind: 'unknown', ok: false }),
      expect.objectContaining({ name: 'check_order', kind: 'tool', ok: false }),
    ]);
    expect(
      model.requests[1].messages.slice(-2).map((m) => (m.role === 'tool' ? JSON.parse(m.content).error : null)),
    ).toEqual(['unknown_function', 'invalid_arguments']);
  });

  it('ends with a built-in: the runner carries it out, the turn ends with the text said alongside', async () => {
    const { model, brain, builtIns, request } = scene([{ content: 'Goodbye, Ann!', toolCalls: [call('end_call')] }]);
    expect(await brain.turn(request)).toEqual({
      reply: 'Goodbye, Ann!',
      end: { reason: 'assistant_ended' },
      fallback: false,
      toolCalls: [
        { name: 'end_call', kind: 'builtin', ok: true, statusCode: null, content: '{"ok":true}', arguments: {} },
      ],
    });
    expect(builtIns).toEqual([{ builtin: endCall, args: {} }]);
    expect(model.requests).toHaveLength(1);
  });

  it('offers no built-in without a runner for them (a chat), and treats one called anyway as made up', async () => {
    const { model, brain, request } = scene([
      { content: null, toolCalls: [call('end_call')] },
      { content: 'Anything else?', toolCalls: [] },
    ]);
    const turn = await brain.turn({ ...request, runBuiltIn: null });
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['check_order']);
    expect(turn).toEqual(expect.objectContaining({ reply: 'Anything else?', end: null }));
    expect(turn.toolCalls[0]).toEqual(expect.objectContaining({ kind: 'unknown' }));
  });

  it('stops a model that keeps calling functions at the round limit: fallback reply, logged warning', async () => {
    const looping = Array.from({ length: MAX_MODEL_ROUNDS + 3 }, (_, i) => ({
      content: null,
      toolCalls: [call('check_order', { order_id: 'A-1' }, `c${i}`)],
    }));
    const { model, brain, ran, log, request } = scene(looping);
    const turn = await brain.turn(request);
    expect(turn).toEqual(expect.objectContaining({ reply: FALLBACK_REPLY, fallback: true, end: null }));
    expect(model.requests).toHaveLength(MAX_MODEL_ROUNDS);
    expect(ran).toHaveLength(MAX_MODEL_ROUNDS - 1);
    expect(log.lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        details: expect.objectContaining({ call_id: 4812, rounds: MAX_MODEL_ROUNDS }),
      }),
    ]);
  });

  it('answers the fallback, with a warning, when the model says nothing at all', async () => {
    const { brain, log, request } = scene([{ content: '   ', toolCalls: [] }]);
    expect(await brain.turn(request)).toEqual({ reply: FALLBACK_REPLY, toolCalls: [], end: null, fallback: true });
    expect(log.lines).toEqual([expect.objectContaining({ level: 'warn', details: { call_id: 4812, round: 1 } })]);
  });

  it('passes the pieces of each round on, tagged by round, when the caller takes them', async () => {
    class StreamingModel extends ScriptedModel {
      override async nextTurn(request: ModelTurnRequest): Promise<ModelTurn> {
        const turn = await super.nextTurn(request);
        for (const piece of (turn.content ?? '').split(/(?= )/)) if (piece) request.onText?.(piece);
        return turn;
      }
    }
    const model = new StreamingModel([
      { content: 'Let me look.', toolCalls: [{ id: 'c1', name: 'check_order', arguments: '{"order_id":"A-1"}' }] },
      { content: 'It ships Friday.', toolCalls: [] },
    ]);
    const brain = new ConversationBrain(
      model,
      new InMemoryCatalogRepository(SAMPLE_CATALOG),
      new ManualClock(NOW),
      new RecordingLogger(),
    );
    const pieces: [string, number][] = [];
    const result = await brain.turn({ ...scene([]).request, onText: (piece, round) => pieces.push([piece, round]) });
    expect(result.reply).toBe('It ships Friday.');
    expect(pieces).toEqual([
      ['Let', 1],
      [' me', 1],
      [' look.', 1],
      ['It', 2],
      [' ships', 2],
      [' Friday.', 2],
    ]);
    // Without a taker the model is asked for whole answers.
    const whole = scene([{ content: 'Hi.', toolCalls: [] }]);
    await whole.brain.turn(whole.request);
    expect(whole.model.requests[0].onText).toBeUndefined();
  });

  it('lets a model failure through: the caller decides what the customer gets', async () => {
    const { brain, request } = scene([new Error('The reply generator could not be reached')]);
    await expect(brain.turn(request)).rejects.toThrow('could not be reached');
  });

  it("reads a multimodal assistant's text model from its chat fallback", async () => {
    const { model, brain, request } = scene([{ content: 'Hi', toolCalls: [] }]);
    await brain.turn({ ...request, setup: { ...setup, assistant: { ...setup.assistant, chat_llm_fallback_id: 1 } } });
    expect(model.requests[0].model).toBe(SAMPLE_CATALOG.models.find((m) => m.id === 1)?.name);
  });

  it('a built-in that stops the turn (a hand-over, keys awaited) answers the text so far without asking the model again; a refused one reports not ok', async () => {
    const { model, brain, request } = scene([{ content: 'Please type your number.', toolCalls: [call('end_call')] }]);
    const stopping: BuiltInRunner = async () => ({ content: '{"awaiting_keys":true}', stop: true });
    expect(await brain.turn({ ...request, runBuiltIn: stopping })).toEqual({
      reply: 'Please type your number.',
      end: null,
      fallback: false,
      toolCalls: [
        {
          name: 'end_call',
          kind: 'builtin',
          ok: true,
          statusCode: null,
          content: '{"awaiting_keys":true}',
          arguments: {},
        },
      ],
    });
    expect(model.requests).toHaveLength(1);

    const refused = scene([
      { content: null, toolCalls: [call('end_call')] },
      { content: 'I cannot.', toolCalls: [] },
    ]);
    const refusing: BuiltInRunner = async () => ({ ok: false, content: '{"error":"not_available"}' });
    const turn = await refused.brain.turn({ ...refused.request, runBuiltIn: refusing });
    expect(turn).toEqual(
      expect.objectContaining({
        reply: 'I cannot.',
        end: null,
        toolCalls: [expect.objectContaining({ ok: false, content: '{"error":"not_available"}' })],
      }),
    );
  });
});
