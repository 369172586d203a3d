import { OutboundSms, SandboxSmsState, SmsProvider, SmsProviderRefusal } from '@voiceplane/application';

/** Sandbox fault kind: the next sends fail as if the carrier gateway were down. */
export const SMS_SEND_FAULT = 'sms_send';
export const SANDBOX_SMS_REFUSAL = 'Sandbox fault injected (sms_send).';

/** The sandbox's message id for voiceplane's reference (`SM` + 32 hex), so it can say later whether it took that send. */
const idOfReference = (reference: number) => `SM${reference.toString(16).padStart(32, '0')}`;

/**
 * SMS simulated on voiceplane's own database: every send is taken at once (a Twilio-like sid)
 * unless an `sms_send` fault is armed for the account or aimed at the sending number, and
 * whatever it took is listed by the sandbox outbox. Its state lives in PostgreSQL, so several
 * instances share one sandbox.
 */
export class SandboxSmsProvider implements SmsProvider {
  readonly name = 'sandbox' as const;

  constructor(
    readonly state: SandboxSmsState,
    private readonly now: () => Date,
  ) {}

  async send(m: OutboundSms): Promise<{ providerMessageId: string }> {
    const providerMessageId = idOfReference(m.reference);
    const outcome = await this.state.accept(
      {
        userId: m.userId,
        phoneNumberId: m.phoneNumberId,
        from: m.from,
        to: m.to,
        body: m.body,
        providerMessageId,
        at: this.now(),
      },
      SMS_SEND_FAULT,
    );
    if (outcome === 'faulted') throw new SmsProviderRefusal(SANDBOX_SMS_REFUSAL);
    return { providerMessageId };
  }

  /** The outbox is the sandbox's memory of what it took. */
  async findSent(m: OutboundSms): Promise<string | null> {
    const providerMessageId = idOfReference(m.reference);
    return (await this.state.wasSent(m.userId, providerMessageId)) ? providerMessageId : null;
  }
}
