import { CallPermission, noCallPermission, ok, Result } from '@voiceplane/domain';
import { CallPermissionChange, CallPermissionRepository } from '@voiceplane/application';
import { copy } from './copy';
import { RowLocks } from './row-locks';

/** Call permissions in memory, with the semantics of the PostgreSQL repository (see its contract suite). */
export class InMemoryCallPermissionRepository implements CallPermissionRepository {
  private readonly rows = new Map<string, CallPermission>();
  private readonly locks = new RowLocks<string>();

  async find(senderId: number, customerPhone: string): Promise<CallPermission> {
    const stored = this.rows.get(keyOf(senderId, customerPhone));
    return stored ? copy(stored) : noCallPermission(senderId, customerPhone);
  }

  update<A, E>(
    senderId: number,
    customerPhone: string,
    decide: (current: CallPermission) => Promise<Result<CallPermissionChange<A>, E>>,
  ): Promise<Result<A, E>> {
    const key = keyOf(senderId, customerPhone);
    return this.locks.hold(key, async () => {
      const decision = await decide(await this.find(senderId, customerPhone));
      if (!decision.ok) return decision;
      if (decision.value.next !== null) this.rows.set(key, copy(decision.value.next));
      return ok(decision.value.answer);
    });
  }

  /** Whether the contact has a stored row (a refused first request must leave none). */
  isStored(senderId: number, customerPhone: string): boolean {
    return this.rows.has(keyOf(senderId, customerPhone));
  }
}

const keyOf = (senderId: number, customerPhone: string): string => `${senderId}:${customerPhone}`;
