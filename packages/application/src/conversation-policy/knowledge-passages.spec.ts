import {
  InMemoryCatalogRepository,
  InMemoryKnowledgeBases,
  InMemoryToolInvocationLog,
  ManualClock,
  RecordingLogger,
  SAMPLE_CATALOG,
  SequentialIds,
} from '@voiceplane/adapter-fakes';
import { ASSISTANT_DEFAULTS, buildRuntimeConfig, KnowledgebaseMode } from '@voiceplane/domain';
import { KnowledgeLookup } from '../knowledge-bases';
import { ConversationBrain } from './conversation-brain';
import { ModelTurn, ModelTurnRequest, ReplyGenerator } from './ports';

const NOW = new Date('2026-11-26T15:30:00.000Z');
const USER = 7;

class ScriptedModel implements ReplyGenerator {
  readonly requests: ModelTurnRequest[] = [];
  constructor(private readonly script: ModelTurn[]) {}
  async nextTurn(request: ModelTurnRequest): Promise<ModelTurn> {
    this.requests.push({ ...request, messages: [...request.messages] });
    return this.script.shift() ?? { content: 'out of script', toolCalls: [] };
  }
  async evaluateConversation(): Promise<Record<string, unknown>> {
    return {};
  }
}

async function scene(mode: KnowledgebaseMode, script: ModelTurn[]) {
  const store = new InMemoryKnowledgeBases(new ManualClock(NOW));
  const kb = await store.knowledgeBaseRepository.create(USER, { name: 'Shop', description: null, status: 'empty' });
  for (const [name, text] of [
    ['Refunds', 'Refunds are paid within 14 days.'],
    ['Hours', 'The shop opens at 9 on weekdays.'],
  ]) {
    const doc = await store.documentRepository.add(USER, kb.id, {
      name,
      description: null,
      source: { type: 'text', content: text },
      language: 'en',
      sizeBytes: 1,
      file: null,
    });
    await store.documentRepository.finish(doc!.id, { status: 'ready', passages: [text], sizeBytes: text.length });
  }
  const setup = buildRuntimeConfig({
    direction: 'inbound',
    channel: 'phone',
    customerPhone: '+14155551234',
    assistantId: 1,
    line: null,
    assistant: {
      ...ASSISTANT_DEFAULTS,
      name: 'Shop',
      voiceId: 1,
      llmModelId: 2,
      multimodalModelId: null,
      knowledgebaseId: kb.id,
      knowledgebaseMode: mode,
      systemPrompt: 'You help.',
    },
    languageCode: 'en',
    secondaryLanguageCodes: [],
    variables: {},
    tools: [],
  });
  const model = new ScriptedModel(script);
  const log = new InMemoryToolInvocationLog();
  const lookup = new KnowledgeLookup(store.retrieval, log, new SequentialIds(), new ManualClock(NOW));
  const brain = new ConversationBrain(
    model,
    new InMemoryCatalogRepository(SAMPLE_CATALOG),
    new ManualClock(NOW),
    new RecordingLogger(),
    lookup,
  );
  const request = {
    setup,
    history: [{ role: 'user' as const, content: 'When do I get my refund?' }],
    runTool: async () => {
      throw new Error('no tools');
    },
    runBuiltIn: null,
    logContext: {},
    userId: USER,
    logOwner: { callId: 41 },
  };
  const docs = Object.fromEntries(
    ((await store.documentRepository.list(USER, kb.id)) ?? []).map((d) => [d.name, d.id]),
  );
  return { model, brain, request, log, docs, kb: kb.id };
}

describe('the assistant answers from its knowledge base', () => {
  it("prompt mode: the best passages for the customer's latest line join the instructions, and the turn reports them", async () => {
    const { model, brain, request, log, docs, kb } = await scene('prompt', [
      { content: 'Within 14 days.', toolCalls: [] },
    ]);
    const turn = await brain.turn(request);
    expect(await log.listForCall(41, 100)).toEqual([
      expect.objectContaining({
        toolId: null,
        name: 'search_knowledge_base',
        at: NOW,
        knowledge: {
          knowledgeBaseId: kb,
          mode: 'prompt',
          query: 'When do I get my refund?',
          passages: [
            { documentId: docs.Refunds, documentName: 'Refunds', position: 1, rank: 1, score: expect.any(Number) },
          ],
        },
      }),
    ]);
    expect(turn.reply).toBe('Within 14 days.');
    expect(model.requests[0].messages[0].content).toContain('# Knowledge base');
    expect(model.requests[0].messages[0].content).toContain('[1] (Refunds) Refunds are paid within 14 days.');
    expect(model.requests[0].messages[0].content).not.toContain('opens at 9');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual([]);
    expect(turn.toolCalls).toEqual([
      {
        name: 'search_knowledge_base',
        kind: 'knowledge',
        ok: true,
        statusCode: null,
        content: '{"passages":[{"document":"Refunds","content":"Refunds are paid within 14 days."}]}',
      },
    ]);
  });

  it('function_call mode: the model gets search_knowledge_base, calls it, and answers from what it read', async () => {
    const { model, brain, request, log, docs } = await scene('function_call', [
      {
        content: null,
        toolCalls: [{ id: 'c1', name: 'search_knowledge_base', arguments: '{"query":"opening hours weekdays shop"}' }],
      },
      { content: 'We open at 9.', toolCalls: [] },
    ]);
    const turn = await brain.turn({ ...request, logOwner: { conversationId: 8 } });
    expect(await log.listForCall(41, 100)).toEqual([]);
    expect((await log.listForConversation(8, 100)).map((r) => r.knowledge)).toEqual([
      {
        knowledgeBaseId: expect.any(Number),
        mode: 'function_call',
        query: 'opening hours weekdays shop',
        passages: [{ documentId: docs.Hours, documentName: 'Hours', position: 1, rank: 1, score: expect.any(Number) }],
      },
    ]);
    expect(turn.reply).toBe('We open at 9.');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['search_knowledge_base']);
    expect(model.requests[0].messages[0].content).not.toContain('# Knowledge base');
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: '{"passages":[{"document":"Hours","content":"The shop opens at 9 on weekdays."}]}',
    });
    expect(turn.toolCalls.map((c) => [c.name, c.kind, c.ok])).toEqual([['search_knowledge_base', 'knowledge', true]]);
  });

  it('reads nothing when the turn names no account', async () => {
    const { model, brain, request } = await scene('prompt', [{ content: 'Hi.', toolCalls: [] }]);
    await brain.turn({ ...request, userId: undefined });
    expect(model.requests[0].messages[0].content).not.toContain('# Knowledge base');
  });
});
