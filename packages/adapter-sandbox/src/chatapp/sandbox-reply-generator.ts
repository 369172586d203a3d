import { ConversationEvaluationRequest, ModelTurn, ReplyGenerator } from '@voiceplane/application';

/** The sandbox assistant's fixed answer. */
export const SANDBOX_AI_REPLY = 'Thanks for your message! (sandbox reply)';

/** The sandbox evaluation's summary; the schema's fields stay null (nothing is really read). */
export const sandboxEvaluationSummary = (messages: number): string =>
  `Sandbox evaluation of ${messages} message${messages === 1 ? '' : 's'}.`;

/** The sandbox model: the fixed answer to every line, in chats and sandbox text calls alike; it never calls a function. */
export class SandboxReplyGenerator implements ReplyGenerator {
  async nextTurn(): Promise<ModelTurn> {
    return { content: SANDBOX_AI_REPLY, toolCalls: [] };
  }

  async evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>> {
    return { status: true, summary: sandboxEvaluationSummary(request.transcript.length) };
  }
}
