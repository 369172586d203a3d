import { ClaimedJob, JobQueue, JobScheduler, NewJob } from '@voiceplane/application';

/** A row of the job table as a test inspects it. */
export interface StoredJob {
  readonly id: number;
  readonly kind: string;
  readonly key: string | null;
  readonly payload: unknown;
  readonly runAt: Date;
  /** Claims so far, reset when the key is scheduled again. */
  readonly attempts: number;
  /** Set while a runner holds the job. */
  readonly leasedUntil: Date | null;
  readonly lastError: string | null;
  readonly buriedAt: Date | null;
}

type Row = { -readonly [K in keyof StoredJob]: StoredJob[K] } & { leaseToken: string | null };

/** The job table in memory, with the semantics of the PostgreSQL store (see the job-store contract). */
export class InMemoryJobStore implements JobScheduler, JobQueue {
  private readonly rows = new Map<number, Row>();
  private lastId = 0;

  async schedule(job: NewJob): Promise<void> {
    const existing = job.key === undefined ? undefined : [...this.rows.values()].find((r) => r.key === job.key);
    const fresh = {
      kind: job.kind,
      payload: asJson(job.payload),
      runAt: new Date(job.runAt),
      attempts: 0,
      leasedUntil: null,
      leaseToken: null,
      lastError: null,
      buriedAt: null,
    };
    if (existing) Object.assign(existing, fresh);
    else this.rows.set(++this.lastId, { id: this.lastId, key: job.key ?? null, ...fresh });
  }

  async cancel(keys: readonly string[]): Promise<void> {
    for (const row of [...this.rows.values()]) if (row.key !== null && keys.includes(row.key)) this.rows.delete(row.id);
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedJob[]> {
    const due = [...this.rows.values()]
      .filter((r) => r.buriedAt === null && r.runAt <= now && (r.leasedUntil === null || r.leasedUntil <= now))
      .sort((a, b) => a.runAt.getTime() - b.runAt.getTime())
      .slice(0, limit);
    return due.map((row) => {
      Object.assign(row, { leasedUntil: new Date(leaseUntil), leaseToken, attempts: row.attempts + 1 });
      return {
        id: row.id,
        kind: row.kind,
        key: row.key,
        payload: asJson(row.payload),
        attempts: row.attempts,
        leaseToken,
      };
    });
  }

  async nextDueAt(): Promise<Date | null> {
    const times = [...this.rows.values()]
      .filter((r) => r.buriedAt === null)
      .map((r) => Math.max(r.runAt.getTime(), r.leasedUntil?.getTime() ?? -Infinity));
    return times.length === 0 ? null : new Date(Math.min(...times));
  }

  async complete(job: ClaimedJob): Promise<void> {
    if (this.held(job)) this.rows.delete(job.id);
  }

  async retry(job: ClaimedJob, runAt: Date, error: string): Promise<void> {
    const row = this.held(job);
    if (row) Object.assign(row, { runAt: new Date(runAt), leasedUntil: null, leaseToken: null, lastError: error });
  }

  async bury(job: ClaimedJob, at: Date, error: string): Promise<void> {
    const row = this.held(job);
    if (row) Object.assign(row, { buriedAt: new Date(at), leasedUntil: null, leaseToken: null, lastError: error });
  }

  /** Every job, buried ones included, in the order they were first scheduled. */
  jobs(): StoredJob[] {
    return [...this.rows.values()].map(({ leaseToken: _, ...row }) => ({ ...row, payload: asJson(row.payload) }));
  }

  private held(job: ClaimedJob): Row | undefined {
    const row = this.rows.get(job.id);
    return row?.leaseToken === job.leaseToken ? row : undefined;
  }
}

/** The real table keeps payloads as JSON: callers get a copy, Dates come back as strings, undefined as null. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
