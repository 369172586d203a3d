import {
  buildToolRequest,
  err,
  ok,
  Result,
  TargetUrlPolicy,
  Tool,
  ToolCallResult,
  ToolRequest,
  toolVariables,
} from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { UnitOfWork } from '../ports';
import { ToolCallContextSource, ToolRepository } from './ports';
import { ToolGateway } from './tool-gateway';

/** How requests are built on this deployment. */
export interface ToolRequestSettings {
  /** `voiceplane/<version>`. */
  readonly userAgent: string;
  readonly policy: TargetUrlPolicy;
}

export interface ToolPreviewInput {
  readonly params: Readonly<Record<string, unknown>>;
  /** Override every other variable source. */
  readonly variables: Readonly<Record<string, unknown>>;
  /** An own call that supplies system and call variables. */
  readonly callId: number | null;
}

export type ToolPreviewRefusal = 'tool_not_found' | 'call_not_found' | 'automation_tool';

export interface ToolTestRun {
  readonly request: ToolRequest;
  /** The `webhook-id` it was signed with; null when nothing was sent. */
  readonly webhookId: string | null;
  readonly result: ToolCallResult;
}

/**
 * Render (dry run: no network, no DNS) and test (one real request) of one of the caller's tools.
 * The request's input comes as a function, read only once the tool is known to be the caller's: a
 * missing tool answers before a malformed body does.
 */
export class ToolPreview {
  constructor(
    private readonly tools: ToolRepository,
    /** Null while no calls capability is installed: then no `call_id` can name a call. */
    private readonly calls: ToolCallContextSource | null,
    private readonly gateway: ToolGateway,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly settings: ToolRequestSettings,
    private readonly uow: UnitOfWork,
  ) {}

  async render(
    userId: number,
    toolId: number,
    inputOf: () => ToolPreviewInput,
  ): Promise<Result<ToolRequest, ToolPreviewRefusal>> {
    const prepared = await this.prepare(userId, toolId, inputOf);
    return prepared.ok ? ok(prepared.value.request) : prepared;
  }

  async test(
    userId: number,
    toolId: number,
    inputOf: () => ToolPreviewInput,
  ): Promise<Result<ToolTestRun, ToolPreviewRefusal>> {
    const prepared = await this.prepare(userId, toolId, inputOf);
    if (!prepared.ok) return prepared;
    const { tool, request } = prepared.value;
    const webhookId = this.ids.token('tcl_', 22);
    const secrets = request.wouldSend ? await this.gateway.signingSecrets(userId) : [];
    const result = await this.gateway.send(tool, request, webhookId, secrets);
    const run = ok({ request, webhookId: request.wouldSend ? webhookId : null, result });
    // Nothing is stored of a test but its answer: a transaction of its own records the outside
    // call's result (an idempotent answer), so a retry after a crash replays it without calling again.
    return this.uow.transaction(async () => run, { concludes: true });
  }

  private async prepare(
    userId: number,
    toolId: number,
    inputOf: () => ToolPreviewInput,
  ): Promise<Result<{ tool: Tool; request: ToolRequest }, ToolPreviewRefusal>> {
    const tool = await this.tools.findForUser(userId, toolId);
    if (tool === null) return err('tool_not_found');
    const input = inputOf();
    let call = null;
    if (input.callId !== null) {
      call = (await this.calls?.forCall(input.callId)) ?? null;
      if (call === null || call.userId !== userId) return err('call_not_found');
    }
    if (tool.type === 'automation') return err('automation_tool');
    const request = buildToolRequest({
      tool,
      params: input.params,
      variables: toolVariables(call, this.clock.now(), input.variables),
      callId: call?.callId ?? null,
      userAgent: this.settings.userAgent,
      policy: this.settings.policy,
    });
    return ok({ tool, request });
  }
}
