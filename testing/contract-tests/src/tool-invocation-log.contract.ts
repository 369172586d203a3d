import { ToolCallResult } from '@voiceplane/domain';
import { ToolInvocationLog, ToolInvocationStart } from '@voiceplane/application';

export interface ToolInvocationLogFixture {
  readonly log: ToolInvocationLog;
  /** An account invocations may belong to. */
  readonly userId: number;
}

const at = (second: number) => new Date(Date.UTC(2030, 4, 1, 12, 0, second));
const answered: ToolCallResult = {
  ok: true,
  statusCode: 200,
  content: '{"status":"shipped"}',
  truncated: false,
  durationMs: 42,
  error: null,
  warnings: [],
};
const timedOut: ToolCallResult = {
  ok: false,
  statusCode: null,
  content: 'The tool did not answer in time.',
  truncated: false,
  durationMs: 10_000,
  error: 'timeout',
  warnings: ['slow'],
};

let sequence = 0;

/**
 * The ToolInvocationLog port's behaviour, run against every implementation: a runtime's id is
 * claimed once per call and its first result is replayed; a holder that never finished before
 * the stale time is taken over (and its late outcome dropped); reads never miss a write `record`
 * started; the call detail lists finished invocations oldest first. `open` gives a log for each test.
 */
export function toolInvocationLogContract(name: string, open: () => Promise<ToolInvocationLogFixture>): void {
  describe(`ToolInvocationLog contract: ${name}`, () => {
    let f: ToolInvocationLogFixture;
    let callId: number;
    const start = (
      invocationId: string | null,
      second: number,
      over: Partial<ToolInvocationStart> = {},
    ): ToolInvocationStart => ({
      id: `tcl_contract${String(++sequence).padStart(10, '0')}`,
      callId,
      userId: f.userId,
      toolId: 7,
      name: 'check_order',
      invocationId,
      at: at(second),
      ...over,
    });

    beforeEach(async () => {
      f = await open();
      callId = 70_000 + ++sequence;
    });

    it('claims a runtime id once per call; a repeat waits while it runs and then replays its result', async () => {
      const first = start('inv-1', 0);
      expect(await f.log.claim(first, at(-60))).toEqual({ claimed: true });
      expect(await f.log.claim(start('inv-1', 1), at(-60))).toEqual({ claimed: false, result: null });
      expect(await f.log.claim(start('inv-1', 1, { callId: callId + 1 }), at(-60))).toEqual({ claimed: true });

      f.log.record(first, answered);
      expect(await f.log.resultOf(callId, 'inv-1')).toEqual(answered);
      expect(await f.log.claim(start('inv-1', 2), at(120))).toEqual({ claimed: false, result: answered });
      expect(await f.log.resultOf(callId, 'inv-2')).toBeNull();
    });

    it('takes over a holder that never finished before the stale time, and keeps only the new outcome', async () => {
      const lost = start('inv-1', 0);
      await f.log.claim(lost, at(-60));
      const retry = start('inv-1', 90);
      expect(await f.log.claim(retry, at(60))).toEqual({ claimed: true });

      f.log.record(retry, answered);
      f.log.record(lost, timedOut);
      expect(await f.log.resultOf(callId, 'inv-1')).toEqual(answered);
      expect((await f.log.listForCall(callId, 100)).map((r) => r.id)).toEqual([retry.id]);
    });

    it('forgets everything of one call, its searches too, and nothing of another', async () => {
      f.log.record(start(null, 1), answered);
      f.log.record(start(null, 2, { callId: callId + 1 }), answered);
      f.log.recordSearch({
        id: `tcl_forget${String(++sequence).padStart(12, '0')}`,
        owner: { callId },
        userId: f.userId,
        durationMs: 5,
        at: at(3),
        search: { knowledgeBaseId: 12, mode: 'prompt', query: 'hours', passages: [] },
      });

      await f.log.forgetCall(callId);

      expect(await f.log.listForCall(callId, 100)).toEqual([]);
      expect(await f.log.listForCall(callId + 1, 100)).toHaveLength(1);
    });

    it('lists the finished invocations of a call, oldest first, with their outcome', async () => {
      const running = start('inv-running', 0);
      await f.log.claim(running, at(-60));
      const later = start(null, 20, { toolId: 8, name: 'book_slot' });
      const earlier = start(null, 10);
      f.log.record(later, timedOut);
      f.log.record(earlier, answered);
      f.log.record(start(null, 5, { callId: callId + 1 }), answered);

      expect(await f.log.listForCall(callId, 100)).toEqual([
        {
          id: earlier.id,
          toolId: 7,
          name: 'check_order',
          ok: true,
          statusCode: 200,
          durationMs: 42,
          error: null,
          at: at(10),
        },
        {
          id: later.id,
          toolId: 8,
          name: 'book_slot',
          ok: false,
          statusCode: null,
          durationMs: 10_000,
          error: 'timeout',
          at: at(20),
        },
      ]);
      await f.log.flush();
      expect(await f.log.listForCall(callId + 2, 100)).toEqual([]);
    });

    it('keeps knowledge-base searches on their call or conversation, beside the tools, with the passages they returned', async () => {
      const search = {
        knowledgeBaseId: 12,
        mode: 'prompt' as const,
        query: 'refund time',
        passages: [
          { documentId: 31, documentName: 'Refunds', position: 0, rank: 1, score: 0.5 },
          { documentId: 32, documentName: 'Terms', position: 3, rank: 2, score: 0.25 },
        ],
      };
      const tool = start(null, 20);
      f.log.record(tool, answered);
      f.log.recordSearch({
        id: `tcl_search${String(++sequence).padStart(12, '0')}`,
        owner: { callId },
        userId: f.userId,
        search,
        durationMs: 3,
        at: at(10),
      });
      const conversationId = 90_000 + sequence;
      const chat = { ...search, mode: 'function_call' as const, passages: [] };
      f.log.recordSearch({
        id: `tcl_search${String(++sequence).padStart(12, '0')}`,
        owner: { conversationId },
        userId: f.userId,
        search: chat,
        durationMs: 0,
        at: at(5),
      });

      const listed = await f.log.listForCall(callId, 100);
      expect(listed.map((r) => [r.name, r.toolId])).toEqual([
        ['search_knowledge_base', null],
        ['check_order', 7],
      ]);
      expect(listed[0]).toEqual({
        id: expect.any(String),
        toolId: null,
        name: 'search_knowledge_base',
        ok: true,
        statusCode: null,
        durationMs: 3,
        error: null,
        at: at(10),
        knowledge: search,
      });
      expect(listed[1].knowledge).toBeUndefined();
      expect(await f.log.listForConversation(conversationId, 100)).toEqual([
        expect.objectContaining({ toolId: null, at: at(5), knowledge: chat }),
      ]);
      expect(await f.log.listForConversation(conversationId + 1, 100)).toEqual([]);
    });

    it('lists the latest invocations of a call or conversation up to the limit asked, oldest first', async () => {
      const search = { knowledgeBaseId: 12, mode: 'prompt' as const, query: 'opening hours', passages: [] };
      const conversationId = 95_000 + ++sequence;
      for (const minute of [1, 2, 3]) {
        f.log.recordSearch({
          id: `tcl_search${String(++sequence).padStart(12, '0')}`,
          owner: { conversationId },
          userId: f.userId,
          search,
          durationMs: minute,
          at: at(minute),
        });
        f.log.recordSearch({
          id: `tcl_search${String(++sequence).padStart(12, '0')}`,
          owner: { callId },
          userId: f.userId,
          search,
          durationMs: minute,
          at: at(minute),
        });
      }
      expect((await f.log.listForConversation(conversationId, 2)).map((r) => r.at)).toEqual([at(2), at(3)]);
      expect((await f.log.listForCall(callId, 2)).map((r) => r.at)).toEqual([at(2), at(3)]);
      expect(await f.log.listForConversation(conversationId, 5)).toHaveLength(3);
    });
  });
}
