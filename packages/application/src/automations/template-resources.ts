import {
  AutomationTemplate,
  JsonObject,
  JsonValue,
  ParamSpec,
  TemplateParams,
  TemplateResource,
} from '@voiceplane/domain';
import { AutomationChatapp, AutomationToolBinding, ConnectionRepository, DataTableRepository } from './ports';
import type { CheckedParams, GoneResource, Outcome } from './template-outcome';
import { refused } from './template-outcome';

export interface ResourceCheckRequest {
  readonly template: AutomationTemplate;
  readonly userId: number;
  readonly assistantId: number | null;
  readonly params: TemplateParams;
  /** The automation's own tool, whose name is not a clash. */
  readonly ownToolId: number | null;
}

/** What the test input needs from a data table (its name too, for the linked tool). */
type Found = Partial<Pick<CheckedParams, 'firstKeyValue' | 'tableName'>>;

/** One kind of account resource a template's params name: refused on apply and update, listed as gone on restore. */
export interface ResourceCheck {
  check(request: ResourceCheckRequest): Promise<Outcome<Found>>;
  gone(template: AutomationTemplate, userId: number, params: TemplateParams): Promise<GoneResource[]>;
}

export type ResourceChecks = { readonly [R in TemplateResource]: ResourceCheck };

export interface ResourceSources {
  readonly tables: DataTableRepository;
  readonly connections: ConnectionRepository;
  readonly tools: AutomationToolBinding;
  readonly chatapp: AutomationChatapp | null;
}

const specOf = (template: AutomationTemplate, key: string): ParamSpec =>
  template.params.find((p) => p.key === key) as ParamSpec;
const goneSpecOf = (template: AutomationTemplate, key: string): ParamSpec | null =>
  template.params.find((p) => p.key === key) ?? null;

export function resourceChecks(sources: ResourceSources): ResourceChecks {
  return {
    connection: connectionCheck(sources),
    data_table: dataTableCheck(sources),
    chatapp_template: chatappTemplateCheck(sources),
  };
}

/** Check 7: the account has connections, the chosen one is among them and is not broken. */
function connectionCheck({ connections }: ResourceSources): ResourceCheck {
  return {
    async check({ template, userId, params }) {
      const spec = specOf(template, 'connection_id');
      const all = await connections.list(userId);
      if (all.length === 0) return refused({ code: 'needs_connection', spec });
      const chosen = all.find((c) => c.id === params.connection_id);
      if (!chosen) {
        return refused({
          code: 'invalid_param_choice',
          spec,
          message: `Connection ${params.connection_id} is not a connection of this account.`,
          choices: all.map((c) => ({ value: String(c.id), label: c.name })),
        });
      }
      if (chosen.status === 'broken')
        return refused({ code: 'needs_reconnection', spec, connectionId: chosen.id, connectionName: chosen.name });
      return { ok: true, value: {} };
    },
    async gone(template, userId, params) {
      if (typeof params.connection_id !== 'number' || (await connections.find(userId, params.connection_id)) !== null)
        return [];
      return [{ spec: goneSpecOf(template, 'connection_id'), what: `connection ${params.connection_id}` }];
    },
  };
}

/** Check 8: the table and its key column exist; a tool made for an assistant may not clash with one it has. */
function dataTableCheck({ tables, tools }: ResourceSources): ResourceCheck {
  return {
    async check({ template, userId, assistantId, params, ownToolId }) {
      const table = await tables.find(userId, params.table_id as number);
      if (!table) {
        const all = await tables.listAll(userId);
        return refused({
          code: 'invalid_param_choice',
          spec: specOf(template, 'table_id'),
          message: `Table ${params.table_id} is not a data table of this account.`,
          choices: all.map((t) => ({ value: String(t.id), label: t.name })),
        });
      }
      const column = table.columns.find((c) => c.name === params.key_column);
      if (!column) {
        return refused({
          code: 'invalid_param_choice',
          spec: specOf(template, 'key_column'),
          message: `Column ${String(params.key_column)} is not a column of table ${table.id}.`,
          choices: table.columns.map((c) => ({ value: c.name, label: `${c.name} (${c.type})` })),
        });
      }
      const first = await tables.firstRow(table.id);
      const firstKeyValue: JsonValue = first ? (first.values[column.name] ?? null) : null;
      if (assistantId !== null && template.tool) {
        const name = template.tool(params, table.name).name;
        if ((await tools.attachedToolNames(assistantId, ownToolId)).includes(name)) {
          return refused({
            code: 'invalid_params',
            problems: [{ spec: specOf(template, 'tool_name'), problem: { code: 'tool_name_taken', name } }],
          });
        }
      }
      return { ok: true, value: { firstKeyValue, tableName: table.name } };
    },
    async gone(template, userId, params) {
      if (typeof params.table_id !== 'number') return [];
      const table = await tables.find(userId, params.table_id);
      if (table === null) return [{ spec: goneSpecOf(template, 'table_id'), what: `table ${params.table_id}` }];
      if (!table.columns.some((c) => c.name === params.key_column))
        return [{ spec: goneSpecOf(template, 'key_column'), what: `column ${String(params.key_column)}` }];
      return [];
    },
  };
}

/** Check 9: the sender is the account's, the template one of its approved ones, and the variables map covers its variables. */
function chatappTemplateCheck({ chatapp }: ResourceSources): ResourceCheck {
  return {
    async check({ template, userId, params }) {
      const senderId = params.sender_id as number;
      const templates = chatapp ? await chatapp.approvedTemplates(userId, senderId) : null;
      if (templates === null) {
        const choices = chatapp ? await chatapp.senderChoices(userId) : [];
        return refused({
          code: 'invalid_param_choice',
          spec: specOf(template, 'sender_id'),
          message: `Sender ${senderId} is not a chat-app sender of this account.`,
          choices,
        });
      }
      const chosen = templates.find((t) => t.templateId === params.template_id);
      if (!chosen) {
        const listed = templates.map((t) => `${t.templateId} (${t.label})`).join(', ') || 'none';
        return refused({
          code: 'invalid_param_choice',
          spec: specOf(template, 'template_id'),
          message: `Template ${params.template_id} is not an approved template of sender ${senderId}. Choices: ${listed}.`,
          choices: templates.map((t) => ({ value: String(t.templateId), label: t.label })),
        });
      }
      const map = (params.variables_map ?? {}) as JsonObject;
      const uncovered = chosen.variables.filter((v) => !Object.prototype.hasOwnProperty.call(map, v));
      if (uncovered.length > 0) {
        return refused({
          code: 'invalid_params',
          problems: [
            { spec: specOf(template, 'variables_map'), problem: { code: 'variables_uncovered', missing: uncovered } },
          ],
        });
      }
      return { ok: true, value: {} };
    },
    async gone(template, userId, params) {
      if (typeof params.sender_id !== 'number') return [];
      const templates = chatapp ? await chatapp.approvedTemplates(userId, params.sender_id) : null;
      if (templates === null) return [{ spec: goneSpecOf(template, 'sender_id'), what: `sender ${params.sender_id}` }];
      if (!templates.some((t) => t.templateId === params.template_id))
        return [{ spec: goneSpecOf(template, 'template_id'), what: `template ${String(params.template_id)}` }];
      return [];
    },
  };
}
