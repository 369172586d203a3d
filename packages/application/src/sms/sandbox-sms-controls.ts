import { err, ok, Result, SmsStatus } from '@voiceplane/domain';
import { SandboxSmsSent, SandboxSmsState, SmsMessage } from './ports';
import { SmsMessages } from './sms-status';

/**
 * The sandbox SMS provider's controls (only while it is the provider): what it sent, and the
 * delivery report a carrier would send for one of the caller's messages — applied exactly as a
 * provider's signed report is.
 */
export class SandboxSmsControls {
  constructor(
    private readonly state: SandboxSmsState,
    private readonly messages: SmsMessages,
  ) {}

  outbox(userId: number, limit: number): Promise<SandboxSmsSent[]> {
    return this.state.outbox(userId, limit);
  }

  /** `unchanged`: the message's status is final already, or the report is no step forward. */
  async report(
    userId: number,
    id: number,
    status: SmsStatus,
    error: { code: string | null; message: string | null },
  ): Promise<Result<SmsMessage, 'not_found' | 'unchanged'>> {
    const message = await this.messages.find(userId, id);
    if (message === null || message.providerMessageId === null) return err('not_found');
    const changed = await this.messages.applyReport({
      reference: id,
      providerMessageId: message.providerMessageId,
      status,
      errorCode: error.code,
      errorMessage: error.message,
    });
    return changed === null ? err('unchanged') : ok(changed);
  }
}
