import { err, ok, Result, ToolCallResult, ToolCallSubject } from '@voiceplane/domain';
import { WorkLogger } from '../events';
import { Ids } from '../ports';
import { runTool, ToolRunning } from './invoke-tool-for-call';
import { ToolInvocationLog, ToolRepository } from './ports';

export interface ConversationToolCall {
  /** The conversation's account. */
  readonly userId: number;
  readonly toolId: number;
  /** Tools attached to the assistant answering. */
  readonly attachedToolIds: readonly number[];
  /** AI-extracted arguments. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The `{{variable}}` values: no call id, the conversation's id. */
  readonly subject: ToolCallSubject;
  /** The conversation's row id: the invocation is kept in its `tool_calls`. */
  readonly conversationRowId?: number;
}

/** Where a chat's tool invocations are told: the work log always, the conversation's `tool_calls` when a row id is given. */
export interface ChatToolRecords {
  readonly log: WorkLogger;
  readonly invocations: ToolInvocationLog | null;
}

/**
 * A mid-call tool used by an assistant answering a chat conversation: the same request, guard,
 * signature and timeout as on a call. Each invocation is kept in the conversation's `tool_calls`
 * (when the request names the conversation's row) and written to the work log.
 */
export class InvokeToolForConversation {
  constructor(
    private readonly tools: ToolRepository,
    private readonly running: ToolRunning,
    private readonly ids: Ids,
    private readonly records: ChatToolRecords,
  ) {}

  async execute(request: ConversationToolCall): Promise<Result<ToolCallResult, 'tool_not_found'>> {
    const tool = await this.tools.find(request.toolId);
    if (tool === null || tool.userId !== request.userId || !request.attachedToolIds.includes(tool.id))
      return err('tool_not_found');
    const id = this.ids.token('tcl_', 22);
    const at = this.running.clock.now();
    const result = await runTool(
      this.running,
      tool,
      request.params,
      { ...request.subject, userId: request.userId },
      id,
      await this.running.gateway.signingSecrets(tool.userId),
    );
    if (request.conversationRowId !== undefined) {
      this.records.invocations?.recordForConversation(
        request.conversationRowId,
        { id, userId: request.userId, toolId: tool.id, name: tool.name, at },
        result,
      );
    }
    this.records.log.info(
      {
        tool_call_id: id,
        tool_id: tool.id,
        name: tool.name,
        conversation_id: request.subject.conversationId,
        ok: result.ok,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
      },
      'a chat reply used a mid-call tool',
    );
    return ok(result);
  }
}
