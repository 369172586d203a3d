import {
  Assistant,
  balanceForNewCall,
  Call,
  CallerLine,
  CallMinutePrices,
  canAfford,
  err,
  ok,
  Result,
  RuntimeConfig,
} from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { UserRepository } from '../ports';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { DoNotCallList } from '../ports';
import { JobHandler, JobScheduler, WorkLogger } from '../events';
import { CallConfigurations } from './call-configurations';
import { CallerLines } from './caller-lines';
import { CallRepository, VoiceRuntime } from './ports';
import { RecordCallEvent } from './record-call-event';

export interface MakeCallRequest {
  readonly userId: number;
  readonly assistantId: number;
  /** E.164, already checked. */
  readonly phoneNumber: string;
  /** Normalised input variables; merged over the assistant's for this call. */
  readonly variables: Readonly<Record<string, string>>;
  /** The automation run placing the call: stored on the call, it keeps automations from looping. */
  readonly automationRunId?: string | null;
  /** A campaign call: the campaign and the lead contact it calls. */
  readonly campaignId?: number;
  readonly leadId?: number;
}

/** What `prepare` read and built for a call about to be stored. */
export interface PreparedCall {
  readonly request: MakeCallRequest;
  readonly assistant: Assistant;
  readonly line: CallerLine;
  readonly runtimeConfig: RuntimeConfig;
  readonly maxConcurrentCalls: number;
}

/** Business refusals of make_call, in the order they are checked. */
export type MakeCallRefusal =
  /** The number is on the account's do-not-call list. */
  | 'do_not_call'
  | 'assistant_not_found'
  | 'not_outbound'
  | 'compliance_blocked'
  | 'insufficient_balance'
  | 'no_caller_line'
  | 'too_many_calls'
  | 'dispatch_failed';

/** Job kind: fails a call whose dispatch was lost (the process died between commit and hand-over). */
export const CALL_DISPATCH_WATCHDOG_JOB = 'call.dispatch_watchdog';
/** A runtime that took a call reports on it within seconds; one still `initiated` this late was never placed. */
export const DISPATCH_WATCHDOG_MS = 10 * 60_000;

/** Where a call's checks read and where the call is stored. */
export interface MakeCallStores {
  readonly uow: UnitOfWork;
  readonly assistants: AssistantRepository;
  readonly users: UserRepository;
  readonly calls: CallRepository;
  /** Numbers the account never calls. */
  readonly doNotCall: DoNotCallList;
}

/** What the call starts with: the line it is placed from, its configuration, its price. */
export interface MakeCallSetup {
  readonly lines: CallerLines;
  readonly configurations: CallConfigurations;
  readonly prices: CallMinutePrices;
}

/** Handing the call over and watching that it was: the runtime, the watchdog job, the end path. */
export interface MakeCallDispatch {
  readonly scheduler: JobScheduler;
  readonly runtime: VoiceRuntime;
  readonly events: RecordCallEvent;
}

/**
 * `POST /api/user/make_call`: checks in contract order, stores the call with the configuration it
 * starts with, and hands it to the voice runtime once that is committed. A refused hand-over ends
 * the call as `failed` through the normal end path.
 */
export class MakeCall {
  private readonly uow: UnitOfWork;
  private readonly assistants: AssistantRepository;
  private readonly users: UserRepository;
  private readonly calls: CallRepository;
  private readonly doNotCall: DoNotCallList;
  private readonly lines: CallerLines;
  private readonly configurations: CallConfigurations;
  private readonly prices: CallMinutePrices;
  private readonly scheduler: JobScheduler;
  private readonly runtime: VoiceRuntime;
  private readonly events: RecordCallEvent;

  constructor(
    stores: MakeCallStores,
    setup: MakeCallSetup,
    dispatch: MakeCallDispatch,
    private readonly clock: Clock,
    private readonly log: WorkLogger,
  ) {
    ({
      uow: this.uow,
      assistants: this.assistants,
      users: this.users,
      calls: this.calls,
      doNotCall: this.doNotCall,
    } = stores);
    ({ lines: this.lines, configurations: this.configurations, prices: this.prices } = setup);
    ({ scheduler: this.scheduler, runtime: this.runtime, events: this.events } = dispatch);
  }

  async execute(request: MakeCallRequest): Promise<Result<{ readonly callId: number }, MakeCallRefusal>> {
    const { userId } = request;
    // A run's call step executed again (its worker was lost after placing the call) places nothing new:
    // the run is the placement's idempotency key, and only the run's lease holder executes it.
    if (request.automationRunId) {
      const placed = await this.calls.list(
        userId,
        { automationRunId: request.automationRunId },
        { page: 1, perPage: 1 },
      );
      if (placed.items.length > 0) return ok({ callId: placed.items[0].id });
    }
    const prepared = await this.prepare(request);
    if (!prepared.ok) return prepared;
    // This commit is what the caller is answered with (the call id), unless the hand-over below fails. A call
    // an automation run places answers the run's step, never the request that started the run.
    const call = await this.uow.transaction(() => this.store(prepared.value), {
      concludes: request.automationRunId
        ? false
        : (created) => (typeof created === 'string' ? err(created) : ok({ callId: created.id })),
    });
    if (typeof call === 'string') return err(call);
    return this.dispatch(call, prepared.value);
  }

  /**
   * The checks that read only (do-not-call list, assistant, compliance, balance, caller line) and the configuration
   * the call starts with. `line` replaces the assistant's line (a campaign's caller-ID pool).
   */
  async prepare(request: MakeCallRequest, line?: CallerLine): Promise<Result<PreparedCall, MakeCallRefusal>> {
    const { userId } = request;
    if ((await this.doNotCall.listed(userId, [request.phoneNumber])).size > 0) return err('do_not_call');
    const assistant = await this.assistants.findOwned(userId, request.assistantId);
    if (assistant === null) return err('assistant_not_found');
    if (assistant.type !== 'outbound') return err('not_outbound');
    if (assistant.complianceBlocked) return err('compliance_blocked');
    const user = await this.users.findById(userId);
    if (user === null || !(await this.affords(userId, user.balance))) return err('insufficient_balance');
    const callerLine = line ?? (await this.lines.forAssistant(userId, assistant.phoneNumberId));
    if (callerLine === null) return err('no_caller_line');
    const runtimeConfig = await this.configurations.forStart({
      direction: 'outbound',
      channel: 'phone',
      customerPhone: request.phoneNumber,
      line: callerLine,
      assistant,
      variables: request.variables,
    });
    return ok({
      request,
      assistant,
      line: callerLine,
      runtimeConfig,
      maxConcurrentCalls: user.plan.max_concurrent_calls,
    });
  }

  /**
   * Inside the caller's transaction: the balance and the plan's concurrency under the account's
   * balance lock, then the call `initiated` with its dispatch watchdog.
   */
  async store(prepared: PreparedCall): Promise<Call | 'insufficient_balance' | 'too_many_calls'> {
    const { request, assistant, line, runtimeConfig } = prepared;
    const { userId } = request;
    // The user's balance lock serialises concurrent calls of the account (make_call, campaigns and
    // chat-app calls alike), so the plan's limit and the first-minute reservation hold under bursts.
    const balance = await this.users.lockBalance(userId);
    if (balance === null || !(await this.affords(userId, balance))) return 'insufficient_balance';
    if ((await this.calls.countActive(userId)) >= prepared.maxConcurrentCalls) return 'too_many_calls';
    const now = this.clock.now();
    const { call } = await this.calls.create({
      userId,
      assistantId: assistant.id,
      direction: 'outbound',
      channel: 'phone',
      status: 'initiated',
      customerPhone: request.phoneNumber,
      line,
      variables: request.variables,
      runtimeConfig,
      automationRunId: request.automationRunId ?? null,
      campaignId: request.campaignId ?? null,
      leadId: request.leadId ?? null,
      now,
    });
    await this.scheduler.schedule({
      kind: CALL_DISPATCH_WATCHDOG_JOB,
      key: `call-dispatch:${call.id}`,
      payload: { call_id: call.id },
      runAt: new Date(now.getTime() + DISPATCH_WATCHDOG_MS),
    });
    return call;
  }

  /** After the commit: hands the call to the runtime; a refusal ends it `failed` through the normal end path. */
  async dispatch(call: Call, prepared: PreparedCall): Promise<Result<{ readonly callId: number }, 'dispatch_failed'>> {
    try {
      await this.runtime.placeCall({
        callId: call.id,
        userId: call.userId,
        customerPhone: call.customerPhone,
        line: prepared.line,
        ringingTimeSeconds: prepared.assistant.ringingTime,
        maxDurationSeconds: prepared.assistant.maxDuration,
      });
    } catch (e) {
      this.log.warn({ err: e, callId: call.id }, 'the voice runtime refused a call');
      await this.events.failUnplaced(call.id, 'dispatch_failed');
      return err('dispatch_failed');
    }
    return ok({ callId: call.id });
  }

  /** One minute of a phone call on top of the first minute of every call of the account in progress. */
  private async affords(userId: number, balance: number): Promise<boolean> {
    return canAfford(
      balanceForNewCall(balance, await this.calls.openCallCounts(userId), this.prices),
      this.prices.phone,
    );
  }
}

export function callDispatchWatchdog(events: RecordCallEvent): JobHandler {
  return {
    kind: CALL_DISPATCH_WATCHDOG_JOB,
    handle: async (job) => {
      await events.failUnplaced((job.payload as { call_id: number }).call_id, 'dispatch_lost');
    },
  };
}
