import { findTemplate, Plan } from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import {
  Automation,
  AutomationChanges,
  AutomationRepository,
  AutomationToolBinding,
  AutomationVersion,
  DataTableRepository,
} from './ports';
import { redactPathSecrets } from '../common';

export const webhookUrlOf = (base: string, automation: Pick<Automation, 'id' | 'webhookToken'>): string | null =>
  automation.webhookToken === null ? null : `${base}/api/hooks/automations/${automation.id}/${automation.webhookToken}`;

/** Thrown inside the publish transaction so that nothing of it stays. */
class ToolLimitReached extends Error {}

export interface PublishRequest {
  readonly testRunId: string | null;
  readonly at: Date;
  /** What else changes on the automation with the live pointer (status, bound, last test). */
  readonly changes: AutomationChanges;
  /**
   * The plan when a `tool`-bound automation without its tool yet may create it (apply, first
   * publish of an update); null when the tool only follows.
   */
  readonly plan: Plan | null;
  /** When this publish commits the outcome its use case is answered with: that outcome, from the published automation. */
  readonly concludes?: (published: Automation) => unknown;
}

/**
 * Publishing a version: it becomes immutable and live, and the linked tool of a
 * lookup automation takes its name, description and schema — all in one transaction, so a publish
 * that fails leaves the live version and the tool as they were.
 */
export class VersionPublisher {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly tools: AutomationToolBinding,
    private readonly tables: DataTableRepository,
    private readonly uow: UnitOfWork,
    private readonly publicBaseUrl: string,
  ) {}

  /** The automation as it is after the publish; `tool_limit_reached` when its tool could not be created (nothing changed). */
  async publish(
    automation: Automation,
    version: AutomationVersion,
    request: PublishRequest,
  ): Promise<Automation | 'tool_limit_reached'> {
    try {
      return await this.uow.transaction(
        async () => {
          await this.automations.publishVersion(version.id, request.testRunId, request.at);
          const toolId = await this.linkedTool(automation, version, request.plan);
          const changes: AutomationChanges = { ...request.changes, liveVersionId: version.id, toolId };
          await this.automations.update(automation.id, changes, request.at);
          return { ...automation, ...changes, updatedAt: request.at };
        },
        { concludes: request.concludes ?? false },
      );
    } catch (e) {
      if (e instanceof ToolLimitReached) return 'tool_limit_reached';
      throw e;
    }
  }

  private async linkedTool(
    automation: Automation,
    version: AutomationVersion,
    plan: Plan | null,
  ): Promise<number | null> {
    if (automation.bindingType !== 'tool' || automation.assistantId === null) return automation.toolId;
    if (automation.toolId === null && plan === null) return null;
    const table = await this.tables.find(automation.userId, version.params.table_id as number);
    // The tool runs its automation in-process by id: its endpoint is shown, never called, so it
    // keeps the hook's address without the token, which lives sealed on the automation alone.
    const tool = findTemplate(automation.templateKey)?.tool;
    if (!tool) throw new Error(`Template ${automation.templateKey} binds no tool.`);
    const fields = {
      ...tool(version.params, table?.name ?? ''),
      endpoint: redactPathSecrets(webhookUrlOf(this.publicBaseUrl, automation) as string),
    };
    if (automation.toolId !== null) {
      await this.tools.updateTool(automation.toolId, fields);
      return automation.toolId;
    }
    const created = await this.tools.createAndAttach(
      automation.userId,
      automation.assistantId,
      automation.id,
      fields,
      (plan as Plan).max_mid_call_tools,
    );
    if (created === null) throw new ToolLimitReached();
    return created;
  }
}
