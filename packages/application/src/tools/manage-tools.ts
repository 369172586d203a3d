import { err, ok, Plan, Result, Tool, ToolFields, ToolRefusal, ToolType } from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { Page, PageRequest } from '../common';
import { ToolRepository } from './ports';

/** Whose tools: the account and the plan that bounds how many it may keep. */
export interface ToolOwner {
  readonly userId: number;
  readonly plan: Pick<Plan, 'max_mid_call_tools'>;
}

/**
 * Tool management: an account's tools within its plan, another account's tool never reached.
 * Field rules are checked before anything here is asked; an update's changes are read against the
 * stored tool (an `http` tool's body format depends on its method), so they come as a function of it.
 */
export class ManageTools {
  constructor(
    private readonly tools: ToolRepository,
    private readonly uow: UnitOfWork,
  ) {}

  /** Both tool types count toward `max_mid_call_tools`. Concludes in the tool's own commit. */
  create(owner: ToolOwner, fields: ToolFields): Promise<Result<Tool, ToolRefusal>> {
    const limit = owner.plan.max_mid_call_tools;
    return this.uow.transaction(
      async (): Promise<Result<Tool, ToolRefusal>> => {
        const tool = await this.tools.createWithinLimit(owner.userId, fields, limit);
        return tool === null ? err({ code: 'plan_limit', limit }) : ok(tool);
      },
      { concludes: true },
    );
  }

  async get(userId: number, id: number): Promise<Result<Tool, 'tool_not_found'>> {
    const tool = await this.tools.findForUser(userId, id);
    return tool === null ? err('tool_not_found') : ok(tool);
  }

  list(userId: number, page: PageRequest, type?: ToolType): Promise<Page<Tool>> {
    return this.tools.list(userId, page, type);
  }

  async update(
    userId: number,
    id: number,
    changesFor: (existing: Tool) => Partial<ToolFields>,
  ): Promise<Result<Tool, 'tool_not_found'>> {
    const existing = await this.tools.findForUser(userId, id);
    if (existing === null) return err('tool_not_found');
    const tool = await this.tools.update(userId, existing.id, changesFor(existing));
    return tool === null ? err('tool_not_found') : ok(tool);
  }

  async delete(userId: number, id: number): Promise<Result<true, 'tool_not_found'>> {
    return (await this.tools.delete(userId, id)) ? ok(true) : err('tool_not_found');
  }
}
