import { err, ok, Result, Sender, senderCountryCode } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { SecretCipher } from '../common';
import type { ChatappCallingLines } from './calling-lines';
import { SenderRepository } from './ports';
import { ChatappProvider, ChatappProviderRefusal, WhatsappCredentials } from './provider-ports';

export interface SenderRegistration {
  readonly userId: number;
  readonly phoneNumber: string;
  readonly displayName: string;
  readonly assistantId: number | null;
  readonly callingEnabled: boolean;
  readonly statusWebhookUrl: string | null;
  readonly credentials: WhatsappCredentials | null;
}

export type RegisterSenderRefusal =
  | { readonly code: 'sender_exists' }
  | { readonly code: 'send_failed'; readonly reason: string };

/**
 * `POST /api/user/chatapp/senders`: the provider registers the number first (the sandbox puts it
 * online at once; WhatsApp reports it connected later), then it is stored with its sealed
 * credentials. A number registered by any account already is `sender_exists`. The store concludes the
 * use case: the provider's answer and the sender made from it commit together, so an idempotent
 * answer stored there is replayed after a crash without registering again.
 */
export class RegisterSender {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly senders: SenderRepository,
    private readonly provider: ChatappProvider,
    private readonly cipher: SecretCipher,
    private readonly clock: Clock,
    /** With a real chat app on LiveKit: the sender's calling line is set up once it is stored. */
    private readonly callingLines: ChatappCallingLines | null = null,
  ) {}

  async execute(r: SenderRegistration): Promise<Result<Sender, RegisterSenderRefusal>> {
    if ((await this.senders.findByProviderRef(r.phoneNumber)) !== null) return err({ code: 'sender_exists' });
    let registered;
    try {
      registered = await this.provider.registerSender(
        { senderId: 0, userId: r.userId, phoneNumber: r.phoneNumber, credentials: r.credentials },
        r.displayName,
      );
    } catch (e) {
      return err({
        code: 'send_failed',
        reason: e instanceof ChatappProviderRefusal ? e.reason : 'the chat app could not be reached',
      });
    }
    const sealedCredentials = r.credentials === null ? null : await this.cipher.encrypt(JSON.stringify(r.credentials));
    const sender = {
      userId: r.userId,
      phoneNumber: r.phoneNumber,
      displayName: r.displayName,
      status: registered.status,
      qualityRating: registered.qualityRating,
      messagingLimit: registered.messagingLimit,
      countryCode: senderCountryCode(r.phoneNumber),
      assistantId: r.assistantId,
      callingEnabled: r.callingEnabled,
      statusWebhookUrl: r.statusWebhookUrl,
      provider: this.provider.name,
      providerSenderRef: registered.providerSenderRef,
      providerAccountRef: registered.providerAccountRef,
      sealedCredentials,
      now: this.clock.now(),
    };
    const created = await this.uow.transaction(() => this.senders.create(sender), {
      concludes: (stored): Result<Sender, RegisterSenderRefusal> =>
        stored === null ? err({ code: 'sender_exists' }) : ok(stored),
    });
    if (created === null) return err({ code: 'sender_exists' });
    // Never refuses the registration: a number that cannot call keeps the reason in its record.
    if (this.callingLines !== null) await this.callingLines.setUp(created);
    return ok(created);
  }
}
