import { AutoRecharge, newAutoRecharge } from '@voiceplane/domain';
import { AutoRechargeRepository } from '@voiceplane/application';
import { copy } from '../copy';

/** Each account's auto-recharge in memory; the domain's defaults until it is saved. */
export class InMemoryAutoRechargeRepository implements AutoRechargeRepository {
  private readonly rows = new Map<number, AutoRecharge>();

  async find(userId: number): Promise<AutoRecharge> {
    return copy(this.rows.get(userId) ?? newAutoRecharge(userId));
  }

  async lock(userId: number): Promise<AutoRecharge> {
    return this.find(userId);
  }

  async save(recharge: AutoRecharge, _at: Date): Promise<void> {
    this.rows.set(
      recharge.userId,
      copy({ ...recharge, state: { ...recharge.state, lastError: recharge.state.lastError?.slice(0, 255) ?? null } }),
    );
  }
}
