import { ReplyGenerator } from '@voiceplane/application';

/** The sandbox assistant's fixed answer (CONTRACT §14.1). */
export const SANDBOX_AI_REPLY = 'Thanks for your message! (sandbox reply)';

export class SandboxReplyGenerator implements ReplyGenerator {
  async generateReply(): Promise<string> {
    return SANDBOX_AI_REPLY;
  }
}
