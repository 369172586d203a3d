import { Call, CallSummary, ChatappCallReport, err, ok, Result, RuntimeConfig } from '@voiceplane/domain';
import { Page, PageRequest } from '../common';
import { TOOL_CALLS_LISTED_MAX, ToolInvocationLog, ToolInvocationRecord } from '../tools';
import { CallFilter, CallRepository } from './ports';

/**
 * The chat app's own account of its calls, kept by chat-app voice; calls only read it, so they
 * name what they read here instead of reaching into that feature.
 */
export interface ChatappCallReportReader {
  findByCallId(callId: number): Promise<ChatappCallReport | null>;
}

/** One call as its owner reads it: with the mid-call tools it invoked and, over a chat app, the app's report. */
export interface CallRecord {
  readonly call: Call;
  readonly toolCalls: readonly ToolInvocationRecord[];
  /** Null for a call of another channel and for a chat-app call the app has not reported yet. */
  readonly report: ChatappCallReport | null;
}

/** The configuration the voice runtime asks for while it places or answers a call. */
export interface CallRuntimeConfig {
  readonly callId: number;
  readonly config: RuntimeConfig;
}

/**
 * Reads of calls: the owner's list and record, never another account's call, and the runtime's
 * view of any call, which the runtime token (not an owner) entitles it to.
 */
export class CallQueries {
  constructor(
    private readonly calls: CallRepository,
    private readonly toolCalls: ToolInvocationLog,
    private readonly reports: ChatappCallReportReader,
  ) {}

  list(userId: number, filter: CallFilter, page: PageRequest): Promise<Page<CallSummary>> {
    return this.calls.list(userId, filter, page);
  }

  async get(userId: number, id: number): Promise<Result<CallRecord, 'call_not_found'>> {
    const call = await this.calls.findOwned(userId, id);
    if (call === null) return err('call_not_found');
    const report = call.channel === 'chatapp' ? await this.reports.findByCallId(call.id) : null;
    return ok({ call, toolCalls: await this.toolCalls.listForCall(call.id, TOOL_CALLS_LISTED_MAX), report });
  }

  async runtimeConfig(id: number): Promise<Result<CallRuntimeConfig, 'call_not_found'>> {
    const call = await this.calls.findById(id);
    return call === null ? err('call_not_found') : ok({ callId: call.id, config: call.runtimeConfig });
  }
}
