import {
  AutomationTemplate,
  checkTemplateParams,
  JsonValue,
  TEMPLATE_RESOURCES,
  TemplateParams,
} from '@voiceplane/domain';
import { AutomationChatapp, AutomationToolBinding, ConnectionRepository, DataTableRepository } from './ports';
import { ResourceChecks, resourceChecks } from './template-resources';
import { CheckedParams, GoneResource, Outcome, refused } from './template-outcome';

export interface CheckSettings {
  /** The write-time URL check for URL params; null when acceptable. */
  readonly checkUrl: (url: string) => string | null;
}

/**
 * Checks 5–9 on a template's params: they run on apply, on an automation update over the merged params,
 * and (as "is every resource still there") on a restore. Which resources are checked is the
 * template's to say (`resources`); the order is always the same.
 */
export class TemplateChecks {
  private readonly resources: ResourceChecks;

  constructor(
    tables: DataTableRepository,
    connections: ConnectionRepository,
    tools: AutomationToolBinding,
    /** Null until the chat-app capability is composed: its templates then refuse `invalid_param_choice` on `sender_id`. */
    chatapp: AutomationChatapp | null,
    private readonly settings: CheckSettings,
  ) {
    this.resources = resourceChecks({ tables, connections, tools, chatapp });
  }

  /** `ownToolId`: the automation's own tool, whose name is not a clash. */
  async check(
    template: AutomationTemplate,
    userId: number,
    assistantId: number | null,
    given: { readonly [key: string]: JsonValue },
    ownToolId: number | null = null,
  ): Promise<Outcome<CheckedParams>> {
    const checked = checkTemplateParams(template, given, { checkUrl: this.settings.checkUrl });
    if (checked.missing.length > 0) return refused({ code: 'missing_params', specs: checked.missing });
    if (checked.invalid.length > 0) return refused({ code: 'invalid_params', problems: checked.invalid });
    // Checks 7–9: the template's resources, in the fixed order.
    const params = checked.params;
    let found: CheckedParams = { params, firstKeyValue: null, tableName: '' };
    for (const resource of declaredResources(template)) {
      const resourceChecked = await this.resources[resource].check({
        template,
        userId,
        assistantId,
        params,
        ownToolId,
      });
      if (!resourceChecked.ok) return resourceChecked;
      found = { ...found, ...resourceChecked.value };
    }
    return { ok: true, value: found };
  }

  /** The resources `params` names that are gone; the assistant is the caller's to check. */
  async goneResources(template: AutomationTemplate, userId: number, params: TemplateParams): Promise<GoneResource[]> {
    const gone: GoneResource[] = [];
    for (const resource of declaredResources(template))
      gone.push(...(await this.resources[resource].gone(template, userId, params)));
    return gone;
  }
}

const declaredResources = (template: AutomationTemplate) =>
  TEMPLATE_RESOURCES.filter((r) => template.resources.includes(r));
