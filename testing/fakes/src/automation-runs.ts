import { copy } from './copy';
import { AutomationRun, RunStatus } from '@voiceplane/domain';
import { AutomationRepository, AutomationRunRepository, RunLease } from '@voiceplane/application';

interface StoredRun {
  readonly automationId: string;
  readonly eventId: string | null;
  run: AutomationRun;
  lease: RunLease | null;
}

/** Runs in memory, with the semantics of the PostgreSQL repository (see the automation-runs contract). */
export class InMemoryAutomationRunRepository implements AutomationRunRepository {
  private readonly runs = new Map<string, StoredRun>();

  /** `automations` answers who owns a run's automation (`locate`). */
  constructor(private readonly automations: AutomationRepository) {}

  async insert(automationId: string, run: AutomationRun, eventId?: string, lease?: RunLease): Promise<boolean> {
    if (
      eventId !== undefined &&
      [...this.runs.values()].some((r) => r.automationId === automationId && r.eventId === eventId)
    )
      return false;
    if (this.runs.has(run.id)) throw new Error(`duplicate run ${run.id}`);
    this.runs.set(run.id, {
      automationId,
      eventId: eventId ?? null,
      run: copy(run),
      lease: lease ? { ...lease } : null,
    });
    return true;
  }

  async insertMany(entries: readonly { readonly automationId: string; readonly run: AutomationRun }[]): Promise<void> {
    for (const { automationId, run } of entries) await this.insert(automationId, run);
  }

  async save(automationId: string, run: AutomationRun): Promise<void> {
    const stored = this.runs.get(run.id);
    if (stored && stored.automationId === automationId) {
      stored.run = copy(run);
      stored.lease = null;
    }
  }

  async saveIfStatus(
    automationId: string,
    run: AutomationRun,
    expected: RunStatus,
    lease?: RunLease,
  ): Promise<boolean> {
    const stored = this.runs.get(run.id);
    if (!stored || stored.automationId !== automationId || stored.run.status !== expected) return false;
    stored.run = copy(run);
    stored.lease = lease ? { ...lease } : null;
    return true;
  }

  async saveHeld(automationId: string, run: AutomationRun, owner: string, next: RunLease | null): Promise<boolean> {
    const stored = this.runs.get(run.id);
    if (!stored || stored.automationId !== automationId || stored.lease?.owner !== owner) return false;
    stored.run = copy(run);
    stored.lease = next ? { ...next } : null;
    return true;
  }

  async heartbeat(owner: string, runIds: readonly string[], until: Date): Promise<void> {
    for (const id of runIds) {
      const stored = this.runs.get(id);
      if (stored?.lease && stored.lease.owner === owner) stored.lease = { owner, until };
    }
  }

  async claim(
    automationId: string,
    runId: string,
    owner: string,
    now: Date,
    until: Date,
  ): Promise<AutomationRun | null> {
    const stored = this.runs.get(runId);
    if (
      !stored ||
      stored.automationId !== automationId ||
      stored.run.status !== 'RUNNING' ||
      !stored.lease ||
      stored.lease.until > now
    )
      return null;
    stored.lease = { owner, until };
    return copy(stored.run);
  }

  async claimLapsed(
    owner: string,
    now: Date,
    until: Date,
    limit: number,
  ): Promise<{ automationId: string; run: AutomationRun }[]> {
    const lapsed = [...this.runs.values()]
      .filter((r) => r.run.status === 'RUNNING' && r.lease !== null && r.lease.until < now)
      .sort((a, b) => (a.lease as RunLease).until.getTime() - (b.lease as RunLease).until.getTime())
      .slice(0, limit);
    for (const r of lapsed) r.lease = { owner, until };
    return lapsed.map((r) => ({ automationId: r.automationId, run: copy(r.run) }));
  }

  async find(automationId: string, runId: string): Promise<AutomationRun | null> {
    const stored = this.runs.get(runId);
    return stored && stored.automationId === automationId ? copy(stored.run) : null;
  }

  async list(automationId: string, limit: number): Promise<AutomationRun[]> {
    return [...this.runs.values()]
      .filter((r) => r.automationId === automationId)
      .sort((a, b) => b.run.startedAt.getTime() - a.run.startedAt.getTime() || (a.run.id < b.run.id ? 1 : -1))
      .slice(0, limit)
      .map((r) => copy(r.run));
  }

  async findAnywhere(runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const stored = this.runs.get(runId);
    return stored ? { automationId: stored.automationId, run: copy(stored.run) } : null;
  }

  async locate(userId: number, runId: string): Promise<{ automationId: string; run: AutomationRun } | null> {
    const stored = this.runs.get(runId);
    if (!stored) return null;
    const automation = await this.automations.find(userId, stored.automationId);
    return automation ? { automationId: stored.automationId, run: copy(stored.run) } : null;
  }
}
