import { Sender } from '@voiceplane/domain';
import { SecretCipher } from '../common';
import { SenderRepository } from './ports';
import { ProviderSender, WhatsappCredentials } from './provider-ports';

/** What a provider needs to act for a sender: its number and its decrypted `provider_config`. */
export class ProviderSenders {
  constructor(
    private readonly senders: SenderRepository,
    private readonly cipher: SecretCipher,
  ) {}

  async of(sender: Sender): Promise<ProviderSender> {
    // Sandbox senders never have credentials: no read on every send.
    const sealed = sender.provider === 'sandbox' ? null : await this.senders.sealedCredentials(sender.id);
    const credentials = sealed === null ? null : (JSON.parse(await this.cipher.decrypt(sealed)) as WhatsappCredentials);
    return { senderId: sender.id, userId: sender.userId, phoneNumber: sender.phoneNumber, credentials };
  }
}
