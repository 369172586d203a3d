import { Conversation, disableAi, enableAi } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { ConversationRef, ConversationRepository } from './ports';

/**
 * disable-ai / enable-ai under the conversation's lock: an AI reply being sent
 * takes the same lock, so it sees the switch and is discarded. Repeating either is a no-op.
 */
export class ToggleAi {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly conversations: ConversationRepository,
    private readonly clock: Clock,
  ) {}

  set(userId: number, ref: ConversationRef, enabled: boolean): Promise<Conversation | null> {
    return this.uow.transaction(
      async () => {
        const owned = await this.conversations.findOwned(userId, ref);
        if (owned === null) return null;
        const locked = await this.conversations.lockById(owned.id);
        if (locked === null) return null;
        const now = this.clock.now();
        const change = enabled ? enableAi(locked, now) : disableAi(locked, now);
        if (change.events.length > 0) await this.conversations.save(change.next);
        return change.next;
      },
      { concludes: true },
    );
  }
}
