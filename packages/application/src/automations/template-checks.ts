import { AutomationTemplate, checkTemplateParams, JsonObject, JsonValue, ParamSpec, TemplateParams } from '@voiceplane/domain';
import { AutomationChatapp, AutomationToolBinding, ConnectionRepository, DataTableRepository } from './ports';

export interface ParamChoice {
  readonly value: string;
  readonly label: string;
}

/** The hard failures, checks 3–12, in that order; nothing is created on any of them. */
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
 * Checks 5–9 on a template's params: they run on apply, on a flow update over the
 * merged params, and (as "is every resource still there") on a restore.
 */
export class TemplateChecks {
  constructor(
    private readonly tables: DataTableRepository,
    private readonly connections: ConnectionRepository,
    private readonly tools: AutomationToolBinding,
    /** Null until the chat-app capability is composed: its templates then refuse `invalid_param_choice` on `sender_id`. */
    private readonly chatapp: AutomationChatapp | null,
    private readonly settings: CheckSettings,
  ) {}

  /** `ownToolId`: the automation's own tool, whose name is not a clash. */
  async check(
    template: AutomationTemplate, userId: number, assistantId: number | null, given: { readonly [key: string]: JsonValue }, ownToolId: number | null = null,
  ): Promise<Outcome<CheckedParams>> {
    const checked = checkTemplateParams(template, given, { checkUrl: this.settings.checkUrl });
    if (checked.missing.length > 0) return refused({ code: 'missing_params', specs: checked.missing });
    if (checked.invalid.length > 0) {
      const errors = Object.fromEntries(checked.invalid.map((i) => [`params.${i.spec.key}`, [i.message]]));
      return refused({ code: 'invalid_params', specs: checked.invalid.map((i) => i.spec), errors });
    }
    return this.checkResources(template, userId, assistantId, checked.params, ownToolId);
  }

  /** The resources `params` names that are gone; the assistant is the caller's to check. */
  async goneResources(template: AutomationTemplate, userId: number, params: TemplateParams): Promise<GoneResource[]> {
    const spec = (key: string) => template.params.find((p) => p.key === key) ?? null;
    const gone: GoneResource[] = [];
    if (typeof params.connection_id === 'number' && (await this.connections.find(userId, params.connection_id)) === null) {
      gone.push({ spec: spec('connection_id'), what: `connection ${params.connection_id}` });
    }
    if (typeof params.table_id === 'number') {
      const table = await this.tables.find(userId, params.table_id);
      if (table === null) gone.push({ spec: spec('table_id'), what: `table ${params.table_id}` });
      else if (!table.columns.some((c) => c.name === params.key_column)) gone.push({ spec: spec('key_column'), what: `column ${String(params.key_column)}` });
    }
    if (typeof params.sender_id === 'number') {
      const templates = this.chatapp ? await this.chatapp.approvedTemplates(userId, params.sender_id) : null;
      if (templates === null) gone.push({ spec: spec('sender_id'), what: `sender ${params.sender_id}` });
      else if (!templates.some((t) => t.templateId === params.template_id)) gone.push({ spec: spec('template_id'), what: `template ${String(params.template_id)}` });
    }
    return gone;
  }

  /** Checks 7–9: connections, then every param naming a resource of the account. */
  private async checkResources(
    template: AutomationTemplate, userId: number, assistantId: number | null, given: TemplateParams, ownToolId: number | null,
  ): Promise<Outcome<CheckedParams>> {
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

    if (template.params.some((p) => p.key === 'table_id')) {
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
      if (assistantId !== null) {
        const name = toolNameOf(params, table.name);
        if ((await this.tools.attachedToolNames(assistantId, ownToolId)).includes(name)) {
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

/** `lookup_` + the table name lower-cased, runs outside `[a-z0-9]` as one `_`, cut to 64. */
export function defaultToolName(tableName: string): string {
  const snake = tableName.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return `lookup_${snake}`.slice(0, 64);
}

const toolNameOf = (params: TemplateParams, tableName: string): string =>
  (typeof params.tool_name === 'string' ? params.tool_name : defaultToolName(tableName));

/** The linked tool of a `midcall_lookup_table` version. */
export function toolFields(params: TemplateParams, tableName: string, endpoint: string) {
  const keyColumn = params.key_column as string;
  return {
    name: toolNameOf(params, tableName),
    description: typeof params.tool_description === 'string' ? params.tool_description : `Look up a record in ${tableName} by ${keyColumn}.`,
    endpoint,
    inputField: typeof params.input_field === 'string' ? params.input_field : 'key',
    keyColumn,
  };
}
