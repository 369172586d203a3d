import { ArmedBillingFaults } from '@voiceplane/application';

export class InMemoryArmedBillingFaults implements ArmedBillingFaults {
  private readonly remaining = new Map<number, number>();

  async arm(userId: number, count: number): Promise<number> {
    this.remaining.set(userId, count);
    return count;
  }

  async claim(userId: number): Promise<boolean> {
    const left = this.remaining.get(userId) ?? 0;
    if (left <= 0) return false;
    this.remaining.set(userId, left - 1);
    return true;
  }
}
