import { ConversationEvaluationRequest, ReplyGenerator } from '@voiceplane/application';

/** The sandbox assistant's fixed answer (CONTRACT §14.1). */
export const SANDBOX_AI_REPLY = 'Thanks for your message! (sandbox reply)';

/** The sandbox evaluation's summary; the schema's fields stay null (nothing is really read). */
export const sandboxEvaluationSummary = (messages: number): string => `Sandbox evaluation of ${messages} message${messages === 1 ? '' : 's'}.`;

export class SandboxReplyGenerator implements ReplyGenerator {
  async generateReply(): Promise<string> {
    return SANDBOX_AI_REPLY;
  }

  async evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>> {
    return { status: true, summary: sandboxEvaluationSummary(request.transcript.length) };
  }
}
