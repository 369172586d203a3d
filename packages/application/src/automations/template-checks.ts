import { AutomationTemplate, checkTemplateParams, JsonValue, ParamProblem, ParamSpec, TEMPLATE_RESOURCES, TemplateParams } from '@voiceplane/domain';
import { AutomationChatapp, AutomationToolBinding, ConnectionRepository, DataTableRepository } from './ports';
import { ResourceChecks, resourceChecks } from './template-resources';

export interface ParamChoice {
  readonly value: string;
  readonly label: string;
}

/** The hard failures, checks 3–12, in that order; nothing is created on any of them. */
export type ApplyRefusal =
  | { readonly code: 'assistant_required' }
  | { readonly code: 'assistant_not_found' }
  | { readonly code: 'missing_params'; readonly specs: readonly ParamSpec[] }
  | { readonly code: 'invalid_params'; readonly problems: readonly RefusedParam[] }
  | { readonly code: 'needs_connection'; readonly spec: ParamSpec }
  | { readonly code: 'invalid_param_choice'; readonly spec: ParamSpec; readonly message: string; readonly choices: readonly ParamChoice[] }
  | { readonly code: 'needs_reconnection'; readonly spec: ParamSpec; readonly connectionId: number; readonly connectionName: string }
  | { readonly code: 'binding_conflict'; readonly assistantId: number; readonly templateKey: string; readonly conflictingAutomationId: string }
  | { readonly code: 'side_effects_require_confirmation' }
  | { readonly code: 'tool_limit_reached'; readonly limit: number };

/** A param value the checks refused, and why; the HTTP layer words it under `params.<key>`. */
export interface RefusedParam {
  readonly spec: ParamSpec;
  readonly problem: ParamProblem | { readonly code: 'tool_name_taken'; readonly name: string } | { readonly code: 'variables_uncovered'; readonly missing: readonly string[] };
}

export type Outcome<T, E = ApplyRefusal> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };
export const refused = <E>(error: E): Outcome<never, E> => ({ ok: false, error });

export interface CheckedParams {
  readonly params: TemplateParams;
  /** The key value of the table's first row: what a lookup test searches for. */
  readonly firstKeyValue: JsonValue;
  readonly tableName: string;
}

/** A resource a version names that the account no longer has. */
export interface GoneResource {
  readonly spec: ParamSpec | null;
  /** e.g. `template 34` */
  readonly what: string;
}

export interface CheckSettings {
  /** The write-time URL check for URL params; null when acceptable. */
  readonly checkUrl: (url: string) => string | null;
}

/**
 * Checks 5–9 on a template's params: they run on apply, on a flow update over the merged params,
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
    template: AutomationTemplate, userId: number, assistantId: number | null, given: { readonly [key: string]: JsonValue }, ownToolId: number | null = null,
  ): Promise<Outcome<CheckedParams>> {
    const checked = checkTemplateParams(template, given, { checkUrl: this.settings.checkUrl });
    if (checked.missing.length > 0) return refused({ code: 'missing_params', specs: checked.missing });
    if (checked.invalid.length > 0) return refused({ code: 'invalid_params', problems: checked.invalid });
    // Checks 7–9: the template's resources, in the fixed order.
    const params = checked.params;
    let found: CheckedParams = { params, firstKeyValue: null, tableName: '' };
    for (const resource of declaredResources(template)) {
      const resourceChecked = await this.resources[resource].check({ template, userId, assistantId, params, ownToolId });
      if (!resourceChecked.ok) return resourceChecked;
      found = { ...found, ...resourceChecked.value };
    }
    return { ok: true, value: found };
  }

  /** The resources `params` names that are gone; the assistant is the caller's to check. */
  async goneResources(template: AutomationTemplate, userId: number, params: TemplateParams): Promise<GoneResource[]> {
    const gone: GoneResource[] = [];
    for (const resource of declaredResources(template)) gone.push(...(await this.resources[resource].gone(template, userId, params)));
    return gone;
  }
}

const declaredResources = (template: AutomationTemplate) => TEMPLATE_RESOURCES.filter((r) => template.resources.includes(r));
