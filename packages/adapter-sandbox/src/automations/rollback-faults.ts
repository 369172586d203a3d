import { RollbackFaults } from '@voiceplane/application';

interface Armed {
  readonly userId: number;
  /** Null: the next restores of any of the user's automations. */
  readonly automationId: string | null;
  remaining: number;
}

/**
 * The sandbox fault `automation_rollback`: the next `count` restores of an automation (or of any
 * of the account's) answer `rollback_failed`. Arming the same scope again replaces what was left.
 */
export class ArmedRollbackFaults implements RollbackFaults {
  private armed: Armed[] = [];

  arm(userId: number, automationId: string | null, count: number): number {
    this.armed = this.armed.filter((x) => !(x.userId === userId && x.automationId === automationId));
    if (count > 0) this.armed.push({ userId, automationId, remaining: count });
    return count;
  }

  claim(userId: number, automationId: string): boolean {
    // A fault aimed at this automation is used before an account-wide one.
    const hit =
      this.armed.find((x) => x.userId === userId && x.automationId === automationId) ??
      this.armed.find((x) => x.userId === userId && x.automationId === null);
    if (!hit) return false;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.armed = this.armed.filter((x) => x !== hit);
    return true;
  }
}
