import { Call, CallSummary, err, isTerminal, ok, OpenCallCounts, Result } from '@voiceplane/domain';
import {
  AcceptedRuntimeEvent,
  CallChange,
  CallChanges,
  CallFilter,
  ChatappCallActivity,
  CallNotFound,
  CallRepository,
  InboundRoute,
  NewCall,
  Outbox,
  Page,
  PageRequest,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';
import { RowLocks } from './row-locks';

/** The calls table in memory, with the semantics of the PostgreSQL repository (see the call-repository contract). */
export class InMemoryCallRepository implements CallRepository {
  private readonly rows = new Map<number, Call>();
  private readonly runtimeEvents = new Map<string, AcceptedRuntimeEvent>();
  private readonly routes: Array<{ readonly route: InboundRoute; readonly inboundTrunkId: string | null }> = [];
  private readonly locks = new RowLocks<number>();
  private lastId = 0;

  constructor(private readonly outbox: Outbox) {}

  async create(call: NewCall): Promise<{ call: Call; created: boolean }> {
    const known = call.providerCallId ? await this.findByProviderCallId(call.providerCallId) : null;
    if (known !== null) return { call: known, created: false };
    const stored: Call = {
      id: ++this.lastId,
      userId: call.userId,
      assistantId: call.assistantId,
      direction: call.direction,
      channel: call.channel,
      status: call.status,
      customerPhone: call.customerPhone,
      assistantPhone: call.line?.phoneNumber ?? null,
      phoneNumberId: call.line?.phoneNumberId ?? null,
      senderId: call.senderId ?? null,
      conversationId: call.conversationId ?? null,
      automationRunId: call.automationRunId ?? null,
      variables: copy(call.variables),
      extractedVariables: {},
      duration: 0,
      cost: 0,
      recordingUrl: null,
      endedReason: null,
      transcript: [],
      runtimeConfig: copy(call.runtimeConfig),
      providerCallId: call.providerCallId ?? null,
      campaignId: call.campaignId ?? null,
      leadId: call.leadId ?? null,
      createdAt: new Date(call.now),
      answeredAt: null,
      finishedAt: null,
      updatedAt: new Date(call.now),
    };
    this.rows.set(stored.id, stored);
    return { call: copy(stored), created: true };
  }

  async chatappActivity(senderId: number, customerPhone: string, since: Date): Promise<ChatappCallActivity> {
    const senderCalls = [...this.rows.values()]
      .filter((c) => c.channel === 'chatapp' && c.senderId === senderId)
      .sort((a, b) => a.id - b.id);
    return {
      openStatuses: senderCalls.filter((c) => !isTerminal(c.status)).map((c) => c.status),
      contactAttempts: senderCalls
        .filter((c) => c.customerPhone === customerPhone && c.createdAt >= since)
        .map((c) => new Date(c.createdAt)),
    };
  }

  async findOwned(userId: number, id: number): Promise<Call | null> {
    const call = this.rows.get(id);
    return call && call.userId === userId ? copy(call) : null;
  }

  async list(userId: number, filter: CallFilter, page: PageRequest): Promise<Page<CallSummary>> {
    const matching = [...this.rows.values()]
      .filter((c) => c.userId === userId && matches(c, filter))
      .sort((a, b) => b.id - a.id)
      .map(({ transcript: _t, runtimeConfig: _r, ...summary }) => copy(summary));
    return pageOf(matching, page);
  }

  async findById(id: number): Promise<Call | null> {
    const call = this.rows.get(id);
    return call ? copy(call) : null;
  }

  async findByProviderCallId(providerCallId: string): Promise<Call | null> {
    const call = [...this.rows.values()].find((c) => c.providerCallId === providerCallId);
    return call ? copy(call) : null;
  }

  async openCallCounts(userId: number): Promise<OpenCallCounts> {
    const open = [...this.rows.values()].filter((c) => c.userId === userId && !isTerminal(c.status));
    return {
      phone: open.filter((c) => c.channel === 'phone').length,
      chatapp: open.filter((c) => c.channel === 'chatapp').length,
    };
  }

  async countActive(userId: number): Promise<number> {
    return [...this.rows.values()].filter((c) => c.userId === userId && !isTerminal(c.status)).length;
  }

  update<A, E>(
    id: number,
    decide: (call: Call) => Promise<Result<CallChange<A>, E>>,
  ): Promise<Result<A, E | CallNotFound>> {
    return this.locks.hold(id, async () => {
      const current = this.rows.get(id);
      if (!current) return err({ code: 'call_not_found' as const });
      const decision = await decide(copy(current));
      if (!decision.ok) return decision;
      const { changes, events = [], at, answer } = decision.value;
      if (Object.values(changes).some((v) => v !== undefined))
        this.rows.set(id, { ...current, ...defined(changes), updatedAt: new Date(at) });
      await this.outbox.add(events);
      return ok(answer);
    });
  }

  delete<E>(
    userId: number,
    id: number,
    decide: (call: Call) => Promise<Result<void, E>>,
  ): Promise<Result<Call, E | CallNotFound>> {
    return this.locks.hold(id, async () => {
      const current = this.rows.get(id);
      if (!current || current.userId !== userId) return err({ code: 'call_not_found' as const });
      const decision = await decide(copy(current));
      if (!decision.ok) return decision;
      this.rows.delete(id);
      for (const key of this.runtimeEvents.keys())
        if ((JSON.parse(key) as [number, string])[0] === id) this.runtimeEvents.delete(key);
      return ok(copy(current));
    });
  }

  async findRuntimeEvent(callId: number, eventId: string): Promise<AcceptedRuntimeEvent | null> {
    return this.runtimeEvents.get(JSON.stringify([callId, eventId])) ?? null;
  }

  async recordRuntimeEvent(callId: number, eventId: string, event: AcceptedRuntimeEvent): Promise<void> {
    const key = JSON.stringify([callId, eventId]);
    if (this.runtimeEvents.has(key)) throw new Error(`Runtime event ${eventId} of call ${callId} is already recorded.`);
    this.runtimeEvents.set(key, { type: event.type, status: event.status });
  }

  /** Tells the fake where inbound calls arrive (the real table derives it from numbers, trunks and assistants). */
  /** The sender's chat-app calls to the customer, newest first (what the call-report fake reads). */
  /** Every stored call, for the analytics fake that reads the same store. */
  allCalls(): Call[] {
    return [...this.rows.values()];
  }

  chatappCallsTo(senderId: number, customerPhone: string): Call[] {
    return [...this.rows.values()]
      .filter((c) => c.channel === 'chatapp' && c.senderId === senderId && c.customerPhone === customerPhone)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((c) => copy(c));
  }

  addInboundRoute(route: InboundRoute, inboundTrunkId: string | null = null): void {
    this.routes.push({ route: copy(route), inboundTrunkId });
  }

  async inboundRoute(to: string, inboundTrunkId: string | null): Promise<InboundRoute | null> {
    const dialled = [to, to.startsWith('+') ? to.slice(1) : `+${to}`];
    const found = this.routes.find((r) =>
      inboundTrunkId !== null ? r.inboundTrunkId === inboundTrunkId : dialled.includes(r.route.phoneNumber),
    );
    return found ? copy(found.route) : null;
  }
}

function matches(c: Call, f: CallFilter): boolean {
  return (
    (f.assistantId === undefined || c.assistantId === f.assistantId) &&
    (f.status === undefined || c.status === f.status) &&
    (f.direction === undefined || c.direction === f.direction) &&
    (f.channel === undefined || c.channel === f.channel) &&
    (f.customerPhone === undefined || c.customerPhone === f.customerPhone) &&
    (f.automationRunId === undefined || c.automationRunId === f.automationRunId) &&
    (f.campaignId === undefined || c.campaignId === f.campaignId) &&
    (f.from === undefined || c.createdAt >= f.from) &&
    (f.to === undefined || c.createdAt <= f.to)
  );
}

function defined(changes: CallChanges): CallChanges {
  return copy(Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)));
}
