import { AssistantRepository } from '../assistants';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { AutomationQueries, AutomationView } from './automation-queries';
import { Automation, AutomationRepository, AutomationToolBinding } from './ports';
import { Outcome, refused } from './template-outcome';

export type EnableRefusal =
  | { readonly code: 'not_found' }
  | { readonly code: 'no_live_version' }
  | { readonly code: 'assistant_not_found' }
  | {
      readonly code: 'binding_conflict';
      readonly assistantId: number;
      readonly templateKey: string;
      readonly conflictingAutomationId: string;
    };

/**
 * Enable, disable and delete; enabling and disabling are idempotent. Each switch concludes in one
 * transaction with the automation record it is answered with, read there: an idempotent answer
 * stored with the switch is the one the caller would have had.
 */
export class ManageAutomations {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly assistants: AssistantRepository,
    private readonly tools: AutomationToolBinding,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly queries: AutomationQueries,
  ) {}

  enable(userId: number, id: string): Promise<Outcome<AutomationView, EnableRefusal>> {
    return this.uow.transaction(
      async (): Promise<Outcome<AutomationView, EnableRefusal>> => {
        const enabled = await this.checkedEnable(userId, id);
        return enabled.ok ? { ok: true, value: await this.queries.view(enabled.value) } : enabled;
      },
      { concludes: true },
    );
  }

  private async checkedEnable(userId: number, id: string): Promise<Outcome<Automation, EnableRefusal>> {
    const found = await this.automations.find(userId, id);
    if (found === null) return refused({ code: 'not_found' });
    if (found.liveVersionId === null) return refused({ code: 'no_live_version' });
    if (found.assistantId !== null && (await this.assistants.findOwned(userId, found.assistantId)) === null)
      return refused({ code: 'assistant_not_found' });
    if (found.bindingType === 'assistant_event') {
      const conflict = await this.automations.findConflict(
        userId,
        found.assistantId as number,
        found.templateKey,
        found.id,
      );
      if (conflict)
        return refused({
          code: 'binding_conflict',
          assistantId: found.assistantId as number,
          templateKey: found.templateKey,
          conflictingAutomationId: conflict.id,
        });
    }
    return { ok: true, value: await this.switchTo(found, true) };
  }

  /** Null when the automation is not the user's. Paused runs still resume; new triggers are refused. */
  disable(userId: number, id: string): Promise<AutomationView | null> {
    return this.uow.transaction(
      async () => {
        const found = await this.automations.find(userId, id);
        return found === null ? null : this.queries.view(await this.switchTo(found, false));
      },
      { concludes: true },
    );
  }

  /** Its tool (detached from every assistant), versions and runs, paused ones included, go with it. */
  async delete(userId: number, id: string): Promise<boolean> {
    const found = await this.automations.find(userId, id);
    if (found === null) return false;
    await this.uow.transaction(async () => {
      if (found.toolId !== null) await this.tools.deleteTool(found.toolId);
      await this.automations.delete(found.id);
    });
    return true;
  }

  private async switchTo(found: Automation, on: boolean): Promise<Automation> {
    const changes = { status: on ? ('enabled' as const) : ('disabled' as const), bound: on };
    if (found.status === changes.status && found.bound === changes.bound) return found;
    const at = this.clock.now();
    await this.automations.update(found.id, changes, at);
    return { ...found, ...changes, updatedAt: at };
  }
}
