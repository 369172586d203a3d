import { ModelTurnRequest, ReplyGenerator, ToolFunction } from '@voiceplane/application';
import { PostCallField } from '@voiceplane/domain';

export interface ReplyGeneratorSubject {
  readonly generator: ReplyGenerator;
  /** The same generator with its model out of reach; absent when the adapter has no model to lose (the sandbox). */
  readonly unreachable?: ReplyGenerator;
}

const checkOrder: ToolFunction = {
  name: 'check_order',
  description: 'Look up an order',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'The order number' } },
    required: ['order_id'],
  },
};
const conversation: ModelTurnRequest = {
  model: '',
  temperature: 0.3,
  messages: [
    { role: 'system', content: 'You are the assistant of Acme.' },
    { role: 'user', content: 'Hi, are you open today?' },
  ],
  tools: [],
};
const schema: PostCallField[] = [
  { name: 'order_id', type: 'string', description: 'The order the customer asked about' },
];
const transcript = [
  { role: 'user' as const, content: 'Where is order A-1?' },
  { role: 'assistant' as const, content: 'It ships today.' },
];

/**
 * What the conversation policy relies on from any ReplyGenerator: a turn is text, function calls
 * or both, never nothing; a call names a function it was offered, under an id the result can be
 * sent back with; an evaluation is an object with `status` and `summary` and no keys beyond the
 * schema's; and a model that cannot be reached throws rather than inventing an answer.
 */
export function replyGeneratorContract(name: string, makeSubject: () => ReplyGeneratorSubject): void {
  describe(`ReplyGenerator contract: ${name}`, () => {
    let subject: ReplyGeneratorSubject;

    beforeEach(() => {
      subject = makeSubject();
    });

    it('answers a conversation with non-empty text and no function call when none is offered', async () => {
      const turn = await subject.generator.nextTurn(conversation);
      expect(turn).toEqual({ content: expect.stringMatching(/\S/), toolCalls: [] });
    });

    it('answers something when functions are offered, and every call names an offered function under a non-empty id', async () => {
      const turn = await subject.generator.nextTurn({ ...conversation, tools: [checkOrder] });
      expect(turn.content !== null || turn.toolCalls.length > 0).toBe(true);
      if (turn.content !== null) expect(turn.content).toMatch(/\S/);
      for (const call of turn.toolCalls) {
        expect(call).toEqual({ id: expect.stringMatching(/\S/), name: checkOrder.name, arguments: expect.any(String) });
      }
      expect(new Set(turn.toolCalls.map((c) => c.id)).size).toBe(turn.toolCalls.length);
    });

    it('continues a conversation that carries function calls and their results', async () => {
      const turn = await subject.generator.nextTurn({
        ...conversation,
        tools: [checkOrder],
        messages: [
          ...conversation.messages,
          {
            role: 'assistant',
            content: null,
            toolCalls: [{ id: 'call_1', name: 'check_order', arguments: '{"order_id":"A-1"}' }],
          },
          { role: 'tool', toolCallId: 'call_1', content: '{"status":"shipped"}' },
        ],
      });
      expect(turn.content !== null || turn.toolCalls.length > 0).toBe(true);
    });

    it('hands the text over piece by piece when asked to stream, the pieces adding up to the answer', async () => {
      const pieces: string[] = [];
      const turn = await subject.generator.nextTurn({ ...conversation, onText: (piece) => pieces.push(piece) });
      expect(turn.toolCalls).toEqual([]);
      expect(pieces.length).toBeGreaterThan(0);
      expect(pieces.join('').trim()).toBe(turn.content);
    });

    it('evaluates a finished conversation into status, summary and at most the schema fields', async () => {
      const evaluation = await subject.generator.evaluateConversation({ model: '', schema, transcript });
      expect(evaluation).toEqual(expect.objectContaining({ status: expect.any(Boolean), summary: expect.any(String) }));
      expect(
        Object.keys(evaluation).filter((key) => !['status', 'summary', ...schema.map((f) => f.name)].includes(key)),
      ).toEqual([]);
    });

    it('throws when the model cannot be reached, for a turn and for an evaluation', async () => {
      if (!subject.unreachable) return;
      await expect(subject.unreachable.nextTurn(conversation)).rejects.toThrow();
      await expect(subject.unreachable.evaluateConversation({ model: '', schema, transcript })).rejects.toThrow();
    });
  });
}
