import type { Sender } from '@voiceplane/domain';
import type { WorkLogger } from '../events';
import type { SecretCipher } from '../common';
import type { ChatappCallingTrunks } from '../telephony';
import type { SenderRepository } from './ports';
import type { ProviderSenders } from './provider-senders';
import { ChatappProviderRefusal, ChatappSipCalling } from './provider-ports';

/**
 * Chat-app calls that are calls in the chat app (WhatsApp Business Calling over SIP), never phone
 * calls from the sender's number. Each sender with calling on gets its own line: the chat app's
 * calling turned on for the number, the SIP password it issues read back and sealed, and an
 * outbound trunk on the voice runtime carrying the number's digest credentials. Composed only
 * with a real chat app and the LiveKit runtime; the sandbox keeps its simulated calls.
 */
export class ChatappCallingLines {
  constructor(
    private readonly senders: SenderRepository,
    private readonly providerSenders: ProviderSenders,
    private readonly calling: ChatappSipCalling,
    private readonly trunks: ChatappCallingTrunks,
    private readonly cipher: SecretCipher,
    private readonly options: {
      /** The SIP server the chat app should name for the number; null: calling is set up in the chat app's own console. */
      readonly sipServerHost: string | null;
      readonly log: WorkLogger;
    },
  ) {}

  /**
   * Sets the sender's line up (again). Never fails the caller: a chat app that refuses or cannot
   * be reached leaves the sender without a line, with the reason in its record, and its calls
   * answer `CALLING_NOT_ENABLED`. A line that existed is replaced make-before-break.
   */
  async setUp(sender: Sender): Promise<void> {
    if (!sender.callingEnabled) return;
    const previous = await this.senders.callingLine(sender.id);
    let line;
    try {
      line = await this.provision(sender);
    } catch (e) {
      const reason =
        e instanceof ChatappProviderRefusal
          ? e.reason
          : e instanceof Error
            ? e.message
            : 'the chat app could not be reached';
      this.options.log.warn({ sender_id: sender.id, reason }, 'the sender has no chat-app calling line');
      line = { trunkId: null, sealedSipPassword: null, error: reason };
    }
    if (line.trunkId === null && previous?.trunkId) {
      // A line that works is kept over a failed renewal.
      await this.senders.setCallingLine(sender.id, { ...previous, error: line.error });
      return;
    }
    await this.senders.setCallingLine(sender.id, line);
    if (previous?.trunkId && previous.trunkId !== line.trunkId) {
      await this.trunks
        .deleteTrunk(previous.trunkId)
        .catch((e: unknown) =>
          this.options.log.warn(
            { err: e, sender_id: sender.id },
            'a replaced chat-app calling trunk could not be deleted',
          ),
        );
    }
  }

  /** The trunk the sender's calls leave through; null: the sender cannot call yet. */
  async trunkOf(senderId: number): Promise<string | null> {
    return (await this.senders.callingLine(senderId))?.trunkId ?? null;
  }

  private async provision(
    sender: Sender,
  ): Promise<{ trunkId: string | null; sealedSipPassword: string | null; error: string | null }> {
    const providerSender = await this.providerSenders.of(sender);
    if (this.options.sipServerHost !== null)
      await this.calling.enableSipCalling(providerSender, this.options.sipServerHost);
    const settings = await this.calling.readSipCalling(providerSender);
    if (!settings.enabled || settings.sipPassword === null)
      return { trunkId: null, sealedSipPassword: null, error: settings.reason ?? 'calling is not enabled' };
    const trunkId = await this.trunks.createChatappCallingTrunk({
      senderId: sender.id,
      accountId: sender.userId,
      phoneNumber: sender.phoneNumber,
      sipPassword: settings.sipPassword,
    });
    return { trunkId, sealedSipPassword: await this.cipher.encrypt(settings.sipPassword), error: null };
  }
}
