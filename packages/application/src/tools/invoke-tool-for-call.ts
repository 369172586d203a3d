import {
  buildToolRequest,
  err,
  ok,
  Result,
  Tool,
  ToolCallResult,
  ToolCallSubject,
  toolVariables,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import {
  AutomationToolRunner,
  ToolCallContextSource,
  ToolInvocationLog,
  ToolInvocationStart,
  ToolRepository,
} from './ports';
import { ToolGateway } from './tool-gateway';
import { ToolRequestSettings } from './tool-preview';

export interface ToolCallRequest {
  readonly callId: number;
  readonly toolId: number;
  /** AI-extracted arguments. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The runtime's id for this invocation; repeating it returns the first result without sending again. */
  readonly invocationId: string | null;
}

export type ToolCallRefusal = 'call_not_found' | 'call_ended' | 'tool_not_found';

// A repeated invocation waits this long past the tool's timeout for the first one to finish; a
// first one that has not finished by then died with its process and is run again.
const REPLAY_GRACE_MS = 2_000;
const REPLAY_POLL_MS = 20;
const KNOWN_OWNERS_LIMIT = 10_000;

/**
 * The gateway entry of the voice runtime: checks the call and the tool, runs the
 * tool once per invocation id, and records every invocation on the call (its `tool_calls`).
 */
export class InvokeToolForCall {
  private readonly toolOwners = new Map<number, number>();

  constructor(
    private readonly calls: ToolCallContextSource,
    private readonly tools: ToolRepository,
    private readonly invocations: ToolInvocationLog,
    /** Its automation runner is null until the automations capability provides one. */
    private readonly running: ToolRunning,
    private readonly ids: Ids,
  ) {}

  async execute(request: ToolCallRequest): Promise<Result<ToolCallResult, ToolCallRefusal>> {
    // A live call is waiting: the call, the tool and its owner's signing secrets are read side by
    // side, and ownership is checked once all are in. A tool's owner never changes, so once a tool
    // has been seen its owner's secrets need not wait for the tool row.
    const knownOwner = this.toolOwners.get(request.toolId);
    const [call, tool, prefetched] = await Promise.all([
      this.calls.forCall(request.callId),
      this.tools.find(request.toolId),
      knownOwner === undefined ? null : this.running.gateway.signingSecrets(knownOwner),
    ]);
    if (tool !== null) this.rememberOwner(tool);
    if (call === null) return err('call_not_found');
    if (call.ended) {
      // A retry of an invocation that finished before the call ended still gets its answer.
      const earlier =
        request.invocationId === null ? null : await this.invocations.resultOf(call.callId, request.invocationId);
      return earlier === null ? err('call_ended') : ok(earlier);
    }
    if (tool === null || tool.userId !== call.userId || !call.attachedToolIds.includes(tool.id))
      return err('tool_not_found');
    const secrets = prefetched ?? (await this.running.gateway.signingSecrets(tool.userId));

    const start: ToolInvocationStart = {
      id: this.ids.token('tcl_', 22),
      callId: call.callId,
      userId: call.userId,
      toolId: tool.id,
      name: tool.name,
      invocationId: request.invocationId,
      at: this.running.clock.now(),
    };
    if (start.invocationId !== null) {
      const earlier = await this.firstResult(start, tool.timeout * 1000 + REPLAY_GRACE_MS);
      if (earlier !== null) return ok(earlier);
    }
    const result = await runTool(this.running, tool, request.params, call, start.id, secrets);
    this.invocations.record(start, result);
    return ok(result);
  }

  private rememberOwner(tool: Tool): void {
    if (this.toolOwners.size >= KNOWN_OWNERS_LIMIT) this.toolOwners.clear();
    this.toolOwners.set(tool.id, tool.userId);
  }

  /**
   * The result of an earlier invocation with the same id, waiting while it runs; null once this
   * one holds the id (also when the holder outlived `patienceMs` and is taken over).
   */
  private async firstResult(start: ToolInvocationStart, patienceMs: number): Promise<ToolCallResult | null> {
    for (;;) {
      const claim = await this.invocations.claim(start, new Date(this.running.clock.now().getTime() - patienceMs));
      if (claim.claimed) return null;
      if (claim.result !== null) return claim.result;
      await pause(REPLAY_POLL_MS);
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What running one tool takes, whoever asks (a call's runtime, a chat conversation). */
export interface ToolRunning {
  readonly gateway: ToolGateway;
  readonly automations: AutomationToolRunner | null;
  readonly clock: Clock;
  readonly settings: ToolRequestSettings;
}

/**
 * One invocation: an automation tool runs in-process, an http tool is built with the subject's
 * variables and sent through the gateway (signed with `secrets`, named `invocationRecordId`).
 */
export async function runTool(
  running: ToolRunning,
  tool: Tool,
  params: Readonly<Record<string, unknown>>,
  subject: ToolCallSubject & { readonly userId: number },
  invocationRecordId: string,
  secrets: readonly string[],
): Promise<ToolCallResult> {
  if (tool.type === 'automation') {
    if (running.automations === null) throw new Error('No automation runner is installed for automation tools.');
    return running.automations.run(tool, params, subject);
  }
  const built = buildToolRequest({
    tool,
    params,
    variables: toolVariables(subject, running.clock.now()),
    callId: subject.callId,
    userAgent: running.settings.userAgent,
    policy: running.settings.policy,
  });
  return running.gateway.send(tool, built, invocationRecordId, secrets);
}
