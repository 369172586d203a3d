import {
  AutomationRun,
  Connection,
  ConnectionAuthType,
  DataTable,
  JsonObject,
  JsonValue,
  Result,
  RunStatus,
  TableColumn,
  TableRow,
  TemplateKey,
} from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

/** Data tables; rows of another user's table are never reached (the table is looked up first). */
export interface DataTableRepository {
  /** `name_taken` when the account already has a table of that name. */
  create(userId: number, name: string, columns: readonly TableColumn[]): Promise<DataTable | 'name_taken'>;
  find(userId: number, id: number): Promise<DataTable | null>;
  /** Newest first. */
  list(userId: number, page: PageRequest): Promise<Page<DataTable>>;
  /** Every table of the user, id ascending (apply choices). */
  listAll(userId: number): Promise<DataTable[]>;
  delete(userId: number, id: number): Promise<boolean>;
  /** `id` ascending. */
  listRows(tableId: number, page: PageRequest): Promise<Page<TableRow>>;
  /** All or nothing; `table_full` when the table would hold more than `maxRows`. */
  addRows(tableId: number, rows: readonly JsonObject[], maxRows: number): Promise<TableRow[] | 'table_full'>;
  /** Merges `values` over the row's; null when the row is not in the table. */
  updateRow(tableId: number, rowId: number, values: JsonObject): Promise<TableRow | null>;
  deleteRow(tableId: number, rowId: number): Promise<boolean>;
  /** The lowest-id row. */
  firstRow(tableId: number): Promise<TableRow | null>;
  /**
   * In one round trip: the lowest-id row of the user's table whose `column` equals `value`, both
   * trimmed, compared case-insensitively; null when none matches, `no_table` when the table is gone.
   */
  lookup(userId: number, tableId: number, column: string, value: string): Promise<TableRow | null | 'no_table'>;
}

export interface ConnectionFields {
  readonly name: string;
  readonly kind: 'http_api';
  readonly baseUrl: string;
  readonly notesPath: string;
  readonly authType: ConnectionAuthType;
  readonly authHeaderName: string | null;
  readonly sealedAuthValue: string | null;
}

export interface ConnectionRepository {
  create(userId: number, fields: ConnectionFields): Promise<Connection>;
  find(userId: number, id: number): Promise<Connection | null>;
  /** Newest first. */
  list(userId: number): Promise<Connection[]>;
  /** `reset`: the base URL or credentials changed, so the connection is `connected` again with no error. */
  update(userId: number, id: number, changes: Partial<ConnectionFields>, reset: boolean): Promise<Connection | null>;
  delete(userId: number, id: number): Promise<boolean>;
  recordCheck(id: number, status: Connection['status'], error: string | null, at: Date): Promise<void>;
}

export type AutomationStatus = 'enabled' | 'disabled';
export type BindingType = 'webhook' | 'assistant_event' | 'tool';

export interface LastTest {
  readonly runId: string;
  readonly runStatus: RunStatus;
  readonly testedAt: Date;
}

export interface Automation {
  readonly id: string;
  readonly userId: number;
  readonly name: string;
  readonly templateKey: TemplateKey;
  readonly status: AutomationStatus;
  readonly bindingType: BindingType;
  readonly assistantId: number | null;
  readonly bound: boolean;
  /** Webhook-triggered templates only. */
  readonly webhookToken: string | null;
  readonly toolId: number | null;
  readonly liveVersionId: string | null;
  readonly lastTest: LastTest | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface AutomationVersion {
  readonly id: string;
  readonly automationId: string;
  readonly number: number;
  readonly state: 'draft' | 'published';
  readonly params: JsonObject;
  /** As stored: read through `parseDefinition` before running. */
  readonly definition: JsonValue;
  readonly restoredFromVersionId: string | null;
  readonly testRunId: string | null;
  readonly createdAt: Date;
  readonly publishedAt: Date | null;
}

export type NewVersion = Omit<AutomationVersion, 'number' | 'state' | 'publishedAt' | 'testRunId'>;

export type AutomationChanges = Partial<
  Pick<Automation, 'name' | 'status' | 'bound' | 'toolId' | 'liveVersionId' | 'lastTest'>
>;

export interface AutomationRepository {
  create(automation: Automation, version: AutomationVersion): Promise<void>;
  find(userId: number, id: string): Promise<Automation | null>;
  /** Any account's automation (runs resumed by the scheduler, tools run by the gateway). */
  findById(id: string): Promise<Automation | null>;
  update(id: string, changes: AutomationChanges, at: Date): Promise<void>;
  findVersion(id: string): Promise<AutomationVersion | null>;
  publishVersion(id: string, testRunId: string | null, at: Date): Promise<void>;
  /** Enabled, bound `assistant_event` automations of the assistant. */
  listBoundToAssistant(assistantId: number): Promise<Automation[]>;
  /** An enabled, bound automation of `templateKey` on the assistant other than `exceptId`. */
  findConflict(
    userId: number,
    assistantId: number,
    templateKey: TemplateKey,
    exceptId?: string,
  ): Promise<Automation | null>;
  /** Newest first by creation. */
  list(userId: number, filters: AutomationFilters, page: PageRequest): Promise<Page<Automation>>;
  /** Every version of the automation, newest (highest number) first. */
  listVersions(automationId: string): Promise<AutomationVersion[]>;
  /** Stores a new draft numbered one above the automation's highest (concurrent adds serialise on the automation). */
  addVersion(version: NewVersion): Promise<AutomationVersion>;
  /** Its versions and runs go with it. */
  delete(id: string): Promise<void>;
}

export interface AutomationFilters {
  readonly status?: AutomationStatus;
  readonly templateKey?: TemplateKey;
  readonly assistantId?: number;
}

/**
 * Who executes a stored RUNNING run and until when. A worker renews its lease while it executes;
 * a lease that lapsed means the worker was lost. `owner: null` is a run waiting for a worker
 * (queued, or waiting for a step's retry) from `until` on.
 */
export interface RunLease {
  readonly owner: string | null;
  readonly until: Date;
}

export interface AutomationRunRepository {
  /** False when a run for `eventId` already exists for this automation (a redelivered event). */
  insert(automationId: string, run: AutomationRun, eventId?: string, lease?: RunLease): Promise<boolean>;
  /** Several finished runs in one statement (runs stored after they answered, written in groups). */
  insertMany(entries: readonly { readonly automationId: string; readonly run: AutomationRun }[]): Promise<void>;
  save(automationId: string, run: AutomationRun): Promise<void>;
  /** Writes `run` only while the stored run still has `expected`: the one writer that wins resumes it (and holds `lease`). */
  saveIfStatus(automationId: string, run: AutomationRun, expected: RunStatus, lease?: RunLease): Promise<boolean>;
  /**
   * Writes `run` and its next lease (null: none, the run no longer needs a worker) only while `owner`
   * still holds it; false when another worker took the run over meanwhile.
   */
  saveHeld(automationId: string, run: AutomationRun, owner: string, next: RunLease | null): Promise<boolean>;
  /** Extends the leases `owner` holds on these runs. */
  heartbeat(owner: string, runIds: readonly string[], until: Date): Promise<void>;
  /** Takes a RUNNING run whose lease lapsed by `now` (or that waits from then on) for `owner`; null when it is not to be taken. */
  claim(automationId: string, runId: string, owner: string, now: Date, until: Date): Promise<AutomationRun | null>;
  /** Takes up to `limit` RUNNING runs whose lease lapsed before `now` for `owner`; each run goes to one caller only. */
  claimLapsed(
    owner: string,
    now: Date,
    until: Date,
    limit: number,
  ): Promise<{ readonly automationId: string; readonly run: AutomationRun }[]>;
  find(automationId: string, runId: string): Promise<AutomationRun | null>;
  /** Newest first by start time. */
  list(automationId: string, limit: number): Promise<AutomationRun[]>;
  /** Any account's run with its automation's id (the run that placed an ending call). */
  findAnywhere(runId: string): Promise<{ readonly automationId: string; readonly run: AutomationRun } | null>;
  /** The run and its automation's id, when the run belongs to one of the user's automations. */
  locate(userId: number, runId: string): Promise<{ readonly automationId: string; readonly run: AutomationRun } | null>;
}

/** What the chat-app capability answers a template send with. */
export interface ChatappSendOk {
  readonly messageSid: string;
  readonly chatappMessageId: number;
  readonly conversationId: number;
  readonly status: string;
}

/**
 * `record_gone`: the sender or template no longer exists; `refused`: any chat-app error code
 * (`detail` is `CODE: message`, e.g. `SENDER_OFFLINE: Sender is not online…`).
 */
export type ChatappSendRefusal = { readonly code: 'record_gone' | 'refused'; readonly detail: string };

export interface ChatappTemplateChoice {
  readonly templateId: number;
  readonly label: string;
  /** Variable names or positions the template needs. */
  readonly variables: readonly string[];
}

/**
 * The chat-app capability as automations use it: sending an approved template and knowing which
 * senders and templates an account has. Provided by the chat-app capability at composition.
 */
export interface AutomationChatapp {
  sendTemplate(request: {
    readonly userId: number;
    readonly senderId: number;
    readonly templateId: number;
    readonly recipientPhone: string;
    readonly variables: JsonObject;
  }): Promise<Result<ChatappSendOk, ChatappSendRefusal>>;
  /** Null when the sender is not the user's; else its approved templates. */
  approvedTemplates(userId: number, senderId: number): Promise<readonly ChatappTemplateChoice[] | null>;
  /** Every sender of the user as `{value,label}` choices. */
  senderChoices(userId: number): Promise<readonly { readonly value: string; readonly label: string }[]>;
}

/** The mid-call tool an applied `midcall_lookup_table` gets on its assistant. */
export interface AutomationToolFields {
  readonly name: string;
  readonly description: string;
  readonly endpoint: string;
  /** The single lookup parameter. */
  readonly inputField: string;
  readonly keyColumn: string;
}

export interface AutomationToolBinding {
  /** The names of the tools attached to the assistant, `exceptToolId` left out. */
  attachedToolNames(assistantId: number, exceptToolId?: number | null): Promise<string[]>;
  /** The linked tool follows a publish: name, description, schema and endpoint. */
  updateTool(toolId: number, fields: AutomationToolFields): Promise<void>;
  /** Deletes the tool; it is detached from every assistant with it. */
  deleteTool(toolId: number): Promise<void>;
  /**
   * Creates a `type: automation` tool and attaches it to the assistant, unless the account holds
   * `limit` tools already (then null); the account row serialises concurrent creates.
   */
  createAndAttach(
    userId: number,
    assistantId: number,
    automationId: string,
    fields: AutomationToolFields,
    limit: number,
  ): Promise<number | null>;
  /** How many tools the account holds. */
  countTools(userId: number): Promise<number>;
}

/** Sandbox fault `automation_rollback`: the next restore of an automation cannot read its version. */
export interface RollbackFaults {
  /** True (and the fault used up) when one is armed for this automation or for any of the user's. */
  claim(userId: number, automationId: string): boolean;
}
