import {
  AutomationRun, AutomationTemplate, checkTemplateParams, deepMerge, JsonObject, JsonValue, ParamSpec, Plan,
  sampleInput, TemplateParams,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants/ports';
import { Clock } from '../ports/clock';
import { Ids } from '../ports/ids';
import { AutomationEngine, pinned } from './automation-engine';
import {
  Automation, AutomationChatapp, AutomationRepository, AutomationToolBinding, AutomationVersion, BindingType, ConnectionRepository, DataTableRepository,
} from './ports';

export interface ApplyTemplateRequest {
  readonly userId: number;
  readonly plan: Plan;
  readonly template: AutomationTemplate;
  readonly params: { readonly [key: string]: JsonValue };
  readonly assistantId: number | null;
  readonly name: string | null;
  readonly confirmSideEffects: boolean;
  readonly test: boolean;
  readonly sample: JsonObject | null;
}

export interface ParamChoice {
  readonly value: string;
  readonly label: string;
}

/** The hard failures of CONTRACT §10.4, checks 3–12, in that order; nothing is created on any of them. */
export type ApplyRefusal =
  | { readonly code: 'assistant_required' }
  | { readonly code: 'assistant_not_found' }
  | { readonly code: 'missing_params'; readonly specs: readonly ParamSpec[] }
  | { readonly code: 'invalid_params'; readonly specs: readonly ParamSpec[]; readonly errors: Record<string, string[]> }
  | { readonly code: 'needs_connection'; readonly spec: ParamSpec }
  | { readonly code: 'invalid_param_choice'; readonly spec: ParamSpec; readonly message: string; readonly choices: readonly ParamChoice[] }
  | { readonly code: 'needs_reconnection'; readonly spec: ParamSpec; readonly connectionId: number; readonly connectionName: string }
  | { readonly code: 'binding_conflict'; readonly assistantId: number; readonly templateKey: string; readonly conflictingAutomationId: string }
  | { readonly code: 'side_effects_require_confirmation' }
  | { readonly code: 'tool_limit_reached'; readonly limit: number };

export interface AppliedTemplate {
  readonly automation: Automation;
  readonly webhookUrl: string | null;
  readonly status: 'active' | 'active_untested' | 'test_failed';
  readonly run: AutomationRun | null;
  /** Output of the last step that ran (the reply body for a sync webhook). */
  readonly response: JsonValue | null;
}

export interface ApplySettings {
  /** PUBLIC_BASE_URL (D7): webhook URLs start with it. */
  readonly publicBaseUrl: string;
  /** §1.11 write-time URL check for URL params; null when acceptable. */
  readonly checkUrl: (url: string) => string | null;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApplyRefusal };
const refused = (error: ApplyRefusal): Outcome<never> => ({ ok: false, error });

const WEBHOOK_TOKEN_LENGTH = 32;

export const webhookUrlOf = (base: string, automation: Pick<Automation, 'id' | 'webhookToken'>): string | null =>
  automation.webhookToken === null ? null : `${base}/api/hooks/automations/${automation.id}/${automation.webhookToken}`;

/** `POST /api/user/automate/templates/{key}` (CONTRACT §10.4). */
export class ApplyTemplate {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly assistants: AssistantRepository,
    private readonly tables: DataTableRepository,
    private readonly connections: ConnectionRepository,
    private readonly tools: AutomationToolBinding,
    /** Null until the chat-app capability is composed: its templates then refuse `invalid_param_choice` on `sender_id`. */
    private readonly chatapp: AutomationChatapp | null,
    private readonly engine: AutomationEngine,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly settings: ApplySettings,
  ) {}

  async execute(request: ApplyTemplateRequest): Promise<Outcome<AppliedTemplate>> {
    const { template, userId } = request;
    if (template.requiresAssistant && request.assistantId === null) return refused({ code: 'assistant_required' });
    if (request.assistantId !== null && (await this.assistants.findOwned(userId, request.assistantId)) === null) return refused({ code: 'assistant_not_found' });

    const checked = checkTemplateParams(template, request.params, { checkUrl: this.settings.checkUrl });
    if (checked.missing.length > 0) return refused({ code: 'missing_params', specs: checked.missing });
    if (checked.invalid.length > 0) {
      const errors = Object.fromEntries(checked.invalid.map((i) => [`params.${i.spec.key}`, [i.message]]));
      return refused({ code: 'invalid_params', specs: checked.invalid.map((i) => i.spec), errors });
    }
    const resources = await this.checkResources(request, checked.params);
    if (!resources.ok) return resources;
    const params = resources.value.params;

    const bindingType: BindingType = template.key === 'midcall_lookup_table' && request.assistantId !== null ? 'tool' : template.bindingType;
    if (bindingType === 'assistant_event') {
      const conflict = await this.automations.findConflict(userId, request.assistantId as number, template.key);
      if (conflict) {
        return refused({ code: 'binding_conflict', assistantId: request.assistantId as number, templateKey: template.key, conflictingAutomationId: conflict.id });
      }
    }
    if (template.sideEffects && request.test && !request.confirmSideEffects) return refused({ code: 'side_effects_require_confirmation' });
    if (bindingType === 'tool' && (await this.tools.countTools(userId)) >= request.plan.max_mid_call_tools) {
      return refused({ code: 'tool_limit_reached', limit: request.plan.max_mid_call_tools });
    }

    const now = this.clock.now();
    const automation: Automation = {
      id: this.ids.token('aut_', 22), userId, name: request.name ?? template.name, templateKey: template.key, status: 'disabled', bindingType,
      assistantId: request.assistantId, bound: false, webhookToken: template.trigger.kind === 'trigger.webhook' ? this.ids.token('', WEBHOOK_TOKEN_LENGTH) : null,
      toolId: null, liveVersionId: null, lastTest: null, createdAt: now, updatedAt: now,
    };
    const definition = template.definition(params, request.assistantId);
    const version: AutomationVersion = {
      id: this.ids.token('ver_', 22), automationId: automation.id, number: 1, state: 'draft', params: params as JsonObject,
      definition: definition as unknown as JsonValue, restoredFromVersionId: null, testRunId: null, createdAt: now, publishedAt: null,
    };
    await this.automations.create(automation, version);
    const webhookUrl = webhookUrlOf(this.settings.publicBaseUrl, automation);

    let run: AutomationRun | null = null;
    if (request.test) {
      const input = deepMerge(sampleInput(template.key, params, { assistantId: request.assistantId, firstKeyValue: resources.value.firstKeyValue }), request.sample ?? {});
      run = await this.engine.start(automation, pinned(version), { trigger: 'test', isTest: true, input });
    }
    const response = run ? lastOutput(run) : null;
    if (run && run.status === 'FAILED') {
      const lastTest = { runId: run.id, runStatus: run.status, testedAt: this.clock.now() };
      await this.automations.update(automation.id, { lastTest }, this.clock.now());
      return { ok: true, value: { automation: { ...automation, lastTest }, webhookUrl, status: 'test_failed', run, response } };
    }

    const publishedAt = this.clock.now();
    await this.automations.publishVersion(version.id, run?.id ?? null, publishedAt);
    let toolId: number | null = null;
    if (bindingType === 'tool') {
      toolId = await this.tools.createAndAttach(userId, request.assistantId as number, automation.id, toolFields(params, resources.value.tableName, webhookUrl as string), request.plan.max_mid_call_tools);
      if (toolId === null) return refused({ code: 'tool_limit_reached', limit: request.plan.max_mid_call_tools });
    }
    const lastTest = run ? { runId: run.id, runStatus: run.status, testedAt: publishedAt } : null;
    const changes = { status: 'enabled' as const, bound: true, liveVersionId: version.id, toolId, lastTest };
    await this.automations.update(automation.id, changes, publishedAt);
    return { ok: true, value: { automation: { ...automation, ...changes, updatedAt: publishedAt }, webhookUrl, status: run ? 'active' : 'active_untested', run, response } };
  }

  /** Checks 7–9: connections, then every param naming a resource of the account. */
  private async checkResources(request: ApplyTemplateRequest, given: TemplateParams): Promise<Outcome<{ params: TemplateParams; firstKeyValue: JsonValue; tableName: string }>> {
    const { template, userId } = request;
    const spec = (key: string) => template.params.find((p) => p.key === key) as ParamSpec;
    const params: Record<string, JsonValue | undefined> = { ...given };
    let firstKeyValue: JsonValue = null;
    let tableName = '';

    if (template.needsConnection) {
      const connections = await this.connections.list(userId);
      if (connections.length === 0) return refused({ code: 'needs_connection', spec: spec('connection_id') });
      const chosen = connections.find((c) => c.id === params.connection_id);
      if (!chosen) {
        return refused({
          code: 'invalid_param_choice', spec: spec('connection_id'), message: `Connection ${params.connection_id} is not a connection of this account.`,
          choices: connections.map((c) => ({ value: String(c.id), label: c.name })),
        });
      }
      if (chosen.status === 'broken') return refused({ code: 'needs_reconnection', spec: spec('connection_id'), connectionId: chosen.id, connectionName: chosen.name });
    }

    if ('table_id' in params || template.key === 'midcall_lookup_table') {
      const table = await this.tables.find(userId, params.table_id as number);
      if (!table) {
        const all = await this.tables.listAll(userId);
        return refused({
          code: 'invalid_param_choice', spec: spec('table_id'), message: `Table ${params.table_id} is not a data table of this account.`,
          choices: all.map((t) => ({ value: String(t.id), label: t.name })),
        });
      }
      const column = table.columns.find((c) => c.name === params.key_column);
      if (!column) {
        return refused({
          code: 'invalid_param_choice', spec: spec('key_column'), message: `Column ${String(params.key_column)} is not a column of table ${table.id}.`,
          choices: table.columns.map((c) => ({ value: c.name, label: `${c.name} (${c.type})` })),
        });
      }
      tableName = table.name;
      const first = await this.tables.firstRow(table.id);
      firstKeyValue = first ? (first.values[column.name] ?? null) : null;
      if (request.assistantId !== null) {
        const name = typeof params.tool_name === 'string' ? params.tool_name : defaultToolName(table.name);
        if ((await this.tools.attachedToolNames(request.assistantId)).includes(name)) {
          return refused({ code: 'invalid_params', specs: [spec('tool_name')], errors: { 'params.tool_name': [`The assistant already has a tool named ${name}.`] } });
        }
      }
    }

    if ('sender_id' in params) {
      const chosen = await this.checkChatapp(userId, params, spec);
      if (!chosen.ok) return chosen;
    }
    return { ok: true, value: { params, firstKeyValue, tableName } };
  }

  private async checkChatapp(userId: number, params: Record<string, JsonValue | undefined>, spec: (key: string) => ParamSpec): Promise<Outcome<null>> {
    const senderId = params.sender_id as number;
    const templates = this.chatapp ? await this.chatapp.approvedTemplates(userId, senderId) : null;
    if (templates === null) {
      const choices = this.chatapp ? await this.chatapp.senderChoices(userId) : [];
      return refused({ code: 'invalid_param_choice', spec: spec('sender_id'), message: `Sender ${senderId} is not a chat-app sender of this account.`, choices });
    }
    const chosen = templates.find((t) => t.templateId === params.template_id);
    if (!chosen) {
      const listed = templates.map((t) => `${t.templateId} (${t.label})`).join(', ') || 'none';
      return refused({
        code: 'invalid_param_choice', spec: spec('template_id'), message: `Template ${params.template_id} is not an approved template of sender ${senderId}. Choices: ${listed}.`,
        choices: templates.map((t) => ({ value: String(t.templateId), label: t.label })),
      });
    }
    const map = (params.variables_map ?? {}) as JsonObject;
    const uncovered = chosen.variables.filter((v) => !Object.prototype.hasOwnProperty.call(map, v));
    if (uncovered.length > 0) {
      return refused({ code: 'invalid_params', specs: [spec('variables_map')], errors: { 'params.variables_map': [`The template variables map must cover: ${uncovered.join(', ')}.`] } });
    }
    return { ok: true, value: null };
  }
}

/** `lookup_` + the table name lower-cased, runs outside `[a-z0-9]` as one `_`, cut to 64 (CONTRACT D20). */
export function defaultToolName(tableName: string): string {
  const snake = tableName.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return `lookup_${snake}`.slice(0, 64);
}

function toolFields(params: TemplateParams, tableName: string, endpoint: string) {
  const keyColumn = params.key_column as string;
  return {
    name: typeof params.tool_name === 'string' ? params.tool_name : defaultToolName(tableName),
    description: typeof params.tool_description === 'string' ? params.tool_description : `Look up a record in ${tableName} by ${keyColumn}.`,
    endpoint,
    inputField: typeof params.input_field === 'string' ? params.input_field : 'key',
    keyColumn,
  };
}

/** Output of the last step that ran (the `respond` body of a sync webhook). */
export function lastOutput(run: AutomationRun): JsonValue | null {
  const ran = run.steps.slice(1).filter((s) => s.output !== undefined && s.status !== 'PENDING' && s.status !== 'SKIPPED');
  return ran.length > 0 ? (ran[ran.length - 1].output as JsonValue) : null;
}

