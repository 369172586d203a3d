import { Sender } from '@voiceplane/domain';
import { Clock } from '../ports';
import { WorkLogger } from '../events';
import { SenderRepository } from './ports';
import { ChatappProvider } from './provider-ports';
import { ProviderSenders } from './provider-senders';

/**
 * Whether a number is connected is Meta's number node (`status`), and no per-number webhook says
 * it. So when the provider reports something about an offline sender's number, its node is read
 * again (the registration read) and the sender takes what the node says: online once CONNECTED,
 * with the node's quality and limit. Sandbox senders are never read.
 */
export class SenderConnection {
  constructor(
    private readonly senders: SenderRepository,
    private readonly providerSenders: ProviderSenders,
    private readonly provider: ChatappProvider,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {}

  async refreshOffline(sender: Sender): Promise<void> {
    if (sender.status !== 'offline' || sender.provider === 'sandbox') return;
    try {
      const node = await this.provider.registerSender(await this.providerSenders.of(sender), sender.displayName);
      const now = this.clock.now();
      await this.senders.setReach(
        sender.id,
        { qualityRating: node.qualityRating, messagingLimit: { value: node.messagingLimit } },
        now,
      );
      if (node.status === 'online') await this.senders.setStatus(sender.id, 'online', null, now);
    } catch (e) {
      this.log.warn(
        { sender_id: sender.id, error: e instanceof Error ? e.message : String(e) },
        "an offline sender's number could not be read again",
      );
    }
  }
}
