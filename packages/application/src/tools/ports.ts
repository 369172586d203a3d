import { Tool, ToolCallResult, ToolCallSubject, ToolFields, ToolType } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';

export interface ToolRepository {
  /** Null when the user already has `limit` tools (both types count); safe against concurrent creates. */
  createWithinLimit(userId: number, fields: ToolFields, limit: number): Promise<Tool | null>;
  findForUser(userId: number, id: number): Promise<Tool | null>;
  /** Any account's tool: for callers that check ownership against something they load beside it. */
  find(id: number): Promise<Tool | null>;
  /** Newest first. */
  list(userId: number, page: PageRequest, type?: ToolType): Promise<Page<Tool>>;
  /** The user's tools among `ids` (others' and missing ids are left out), in the order of `ids`. */
  listByIds(userId: number, ids: readonly number[]): Promise<Tool[]>;
  /** Null when no such tool of this user exists. */
  update(userId: number, id: number, changes: Partial<ToolFields>): Promise<Tool | null>;
  /** Detaches the tool from every assistant too. False when no such tool of this user exists. */
  delete(userId: number, id: number): Promise<boolean>;
}

/** What the gateway needs to know about a call (provided by the calls capability). */
export interface ToolCallContext extends ToolCallSubject {
  readonly callId: number;
  readonly userId: number;
  /** The call is in a terminal state. */
  readonly ended: boolean;
  /** Tools attached to the call's assistant. */
  readonly attachedToolIds: readonly number[];
  /** Knowledge bases of the call's assistant and of the assistants it may hand the call to (absent: none known). */
  readonly knowledgeBaseIds?: readonly number[];
}

export interface ToolCallContextSource {
  /** Null when no call has this id. */
  forCall(callId: number): Promise<ToolCallContext | null>;
}

/** One invocation as the call detail shows it (`tool_calls`). */
export interface ToolInvocationRecord {
  /** `tcl_…`, also the `webhook-id` the request was signed with. */
  readonly id: string;
  /** Null for a knowledge-base search, which no tool carried out. */
  readonly toolId: number | null;
  readonly name: string;
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: string | null;
  readonly at: Date;
  /** Set on a knowledge-base search: what was looked up and which passages came back. */
  readonly knowledge?: KnowledgeSearchDetail;
}

/** Where a log entry belongs: the call or the chat conversation the assistant was answering. */
export type InvocationOwner =
  | { readonly callId: number; readonly conversationId?: undefined }
  | { readonly conversationId: number; readonly callId?: undefined };

/** One passage an answer was given, by the document it came from and its place in the ranking (1 = best). */
export interface RetrievedPassageRef {
  readonly documentId: number;
  readonly documentName: string;
  /** The passage's place within its document (1 = first). */
  readonly position: number;
  readonly rank: number;
  readonly score: number;
}

export interface KnowledgeSearchDetail {
  readonly knowledgeBaseId: number;
  /** `prompt`: the passages were added to the instructions; `function_call`: the model searched. */
  readonly mode: 'prompt' | 'function_call';
  readonly query: string;
  readonly passages: readonly RetrievedPassageRef[];
}

/** A knowledge-base search an answer used, kept in the same log as the tools so a user sees why the assistant said what it said. */
export interface KnowledgeSearchEntry {
  readonly id: string;
  readonly owner: InvocationOwner;
  readonly userId: number;
  readonly search: KnowledgeSearchDetail;
  readonly durationMs: number;
  readonly at: Date;
}

export interface ToolInvocationStart {
  readonly id: string;
  readonly callId: number;
  readonly userId: number;
  readonly toolId: number;
  readonly name: string;
  /** The runtime's own id for the invocation; repeating it replays the first result. */
  readonly invocationId: string | null;
  readonly at: Date;
}

/** `claimed`, or the invocation that already holds the runtime's id (result null while it runs). */
export type InvocationClaim =
  | { readonly claimed: true }
  | { readonly claimed: false; readonly result: ToolCallResult | null };

/**
 * Invocations a call or a conversation lists (`tool_calls`): the latest ones. A conversation gets one
 * knowledge-base search per AI reply for as long as it goes on, and the answer must not grow with it.
 */
export const TOOL_CALLS_LISTED_MAX = 500;

export interface ToolInvocationLog {
  /**
   * Takes `start.invocationId` for its call. An unfinished holder that started before `staleBefore`
   * is considered lost and taken over.
   */
  claim(start: ToolInvocationStart, staleBefore: Date): Promise<InvocationClaim>;
  /**
   * Stores the outcome (for a claimed start: completes it) without holding up the caller: the
   * runtime has its answer before the row is written. `resultOf` and `listForCall` of this log
   * wait for its own unfinished writes of that call, so they never miss one.
   */
  record(start: ToolInvocationStart, result: ToolCallResult): void;
  /** Resolves once every write started by `record` has finished (shutdown). */
  flush(): Promise<void>;
  /** The result stored under the runtime's id; null while running or when there is none. */
  resultOf(callId: number, invocationId: string): Promise<ToolCallResult | null>;
  /** The latest `limit` finished invocations of a call, oldest first (knowledge-base searches included). */
  listForCall(callId: number, limit: number): Promise<ToolInvocationRecord[]>;
  /** Deletes everything logged for a call (the call is being deleted); its pending writes finish first. */
  forgetCall(callId: number): Promise<void>;
  /**
   * Stores a knowledge-base search without holding up the answer, like `record`; the lists of
   * this log wait for its unfinished writes of that call or conversation.
   */
  recordSearch(entry: KnowledgeSearchEntry): void;
  /** A mid-call tool a chat reply used, stored like `record` (no runtime id: a chat never retries one). */
  recordForConversation(
    conversationId: number,
    start: Omit<ToolInvocationStart, 'callId' | 'invocationId'>,
    result: ToolCallResult,
  ): void;
  /** The latest `limit` of what the assistant used while answering a chat conversation, oldest first. */
  listForConversation(conversationId: number, limit: number): Promise<ToolInvocationRecord[]>;
}

/** Runs a `type: automation` tool in-process (provided by the automations capability). */
export interface AutomationToolRunner {
  /** `owner`: the account the call or conversation belongs to. */
  run(
    tool: Tool,
    params: Readonly<Record<string, unknown>>,
    owner: { readonly userId: number },
  ): Promise<ToolCallResult>;
}
