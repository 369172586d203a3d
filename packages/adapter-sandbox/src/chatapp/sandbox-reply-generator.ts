import { setTimeout as sleep } from 'node:timers/promises';
import { ConversationEvaluationRequest, ModelTurn, ModelTurnRequest, ReplyGenerator } from '@voiceplane/application';

/** The pause between two words of a streamed sandbox answer, so a live view shows it growing as a real model's would. */
const SANDBOX_WORD_MS = 25;

/** The sandbox assistant's fixed answer. */
export const SANDBOX_AI_REPLY = 'Thanks for your message! (sandbox reply)';

/** The sandbox evaluation's summary; the schema's fields stay null (nothing is really read). */
export const sandboxEvaluationSummary = (messages: number): string =>
  `Sandbox evaluation of ${messages} message${messages === 1 ? '' : 's'}.`;

/**
 * The sandbox model: the fixed answer to every line, in chats and sandbox text calls alike; it
 * never calls a function. Asked to stream, it hands the answer over word by word.
 */
export class SandboxReplyGenerator implements ReplyGenerator {
  async nextTurn(request?: ModelTurnRequest): Promise<ModelTurn> {
    if (request?.onText) {
      for (const [i, word] of SANDBOX_AI_REPLY.split(/(?= )/).entries()) {
        if (i > 0) await sleep(SANDBOX_WORD_MS);
        request.onText(word);
      }
    }
    return { content: SANDBOX_AI_REPLY, toolCalls: [] };
  }

  async evaluateConversation(request: ConversationEvaluationRequest): Promise<Record<string, unknown>> {
    return { status: true, summary: sandboxEvaluationSummary(request.transcript.length) };
  }
}
