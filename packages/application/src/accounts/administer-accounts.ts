import { err, ok, Plan, Result, User, withPlanChanges } from '@voiceplane/domain';
import type { UserRepository } from '../ports';
import { Page, PageRequest } from '../common';

/**
 * What the operator does to accounts besides creating them and moving balances: look them up,
 * change plan fields (the rest of the plan kept), disable or enable them.
 */
export class AdministerAccounts {
  constructor(private readonly users: UserRepository) {}

  list(page: PageRequest, email?: string): Promise<Page<User>> {
    return this.users.list(page, email);
  }

  async get(userId: number): Promise<Result<User, 'user_not_found'>> {
    const user = await this.users.findById(userId);
    return user === null ? err('user_not_found') : ok(user);
  }

  /** `changesOf` is read once the account is known to exist; the answer is the account with its new plan. */
  async changePlan(userId: number, changesOf: () => Partial<Plan>): Promise<Result<User, 'user_not_found'>> {
    const user = await this.users.findById(userId);
    if (user === null) return err('user_not_found');
    const plan = withPlanChanges(user.plan, changesOf());
    await this.users.updatePlan(user.id, plan);
    return ok({ ...user, plan });
  }

  async setDisabled(userId: number, disabled: boolean): Promise<Result<User, 'user_not_found'>> {
    const user = await this.users.findById(userId);
    if (user === null) return err('user_not_found');
    await this.users.setDisabled(userId, disabled);
    return ok({ ...user, disabled });
  }
}
