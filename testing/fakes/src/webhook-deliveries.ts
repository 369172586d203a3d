import { DeliveryAttempt, err, ok, Result, WebhookDelivery } from '@voiceplane/domain';
import {
  CancelCriteria,
  DeliveryClaim,
  DeliveryFilter,
  DeliveryForSettlement,
  DeliveryLease,
  DeliveryNotFound,
  DeliveryRestart,
  DeliverySettlement,
  JobScheduler,
  NewDelivery,
  Outbox,
  Page,
  PageRequest,
  SettlementDecision,
  SigningSecretRepository,
  WebhookDeliveryRepository,
} from '@voiceplane/application';
import { copy } from './copy';
import { pageOf } from './paging';
import { RowLocks } from './row-locks';

type Row = { -readonly [K in keyof WebhookDelivery]: WebhookDelivery[K] } & {
  roundAttempts: number;
  maxAttempts: number;
  requestId: string | null;
  lockedUntil: Date | null;
  leaseToken: string | null;
  attempts: DeliveryAttempt[];
};

/**
 * Webhook deliveries and their attempts in memory, with the semantics of the PostgreSQL repository
 * (see the webhook-delivery-repository contract). A claim reads the owner's signing secret, as the
 * real claim joins it.
 */
export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  private readonly rows: Row[] = [];

  private readonly locks = new RowLocks<string>();

  constructor(
    private readonly secrets: SigningSecretRepository,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
  ) {}

  async insert(d: NewDelivery): Promise<WebhookDelivery> {
    if (this.rows.some((r) => r.id === d.id)) throw new Error(`Delivery ${d.id} already exists.`);
    const row: Row = {
      id: d.id,
      userId: d.userId,
      eventType: d.eventType,
      webhookId: d.webhookId,
      targetUrl: d.targetUrl,
      body: d.body,
      status: 'pending',
      attemptsCount: 0,
      nextAttemptAt: new Date(d.now),
      lastAttemptAt: null,
      lastStatusCode: null,
      lastError: null,
      source: { ...d.source },
      subject: d.subject === null ? null : { ...d.subject },
      createdAt: new Date(d.now),
      updatedAt: new Date(d.now),
      roundAttempts: 0,
      maxAttempts: d.maxAttempts,
      requestId: d.requestId,
      lockedUntil: d.lease ? new Date(d.lease.until) : null,
      leaseToken: d.lease?.token ?? null,
      attempts: [],
    };
    this.rows.push(row);
    await this.outbox.add(d.events ?? []);
    return toDelivery(row);
  }

  async find(userId: number, id: string): Promise<WebhookDelivery | null> {
    const row = this.row(id);
    return row && row.userId === userId ? toDelivery(row) : null;
  }

  async attempts(deliveryId: string): Promise<DeliveryAttempt[]> {
    return copy(this.row(deliveryId)?.attempts ?? []);
  }

  async list(userId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const matching = this.rows.filter(
      (r) =>
        r.userId === userId &&
        (filter.status === undefined || r.status === filter.status) &&
        (filter.eventType === undefined || r.eventType === filter.eventType) &&
        (filter.sourceType === undefined || r.source.type === filter.sourceType) &&
        (filter.sourceId === undefined || r.source.id === filter.sourceId),
    );
    return pageOf([...matching].reverse().map(toDelivery), page);
  }

  async overdue(dueBefore: Date, now: Date, limit: number): Promise<string[]> {
    return this.rows
      .filter(
        (r) => r.status === 'pending' && r.nextAttemptAt !== null && r.nextAttemptAt <= dueBefore && !heldAt(r, now),
      )
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime())
      .slice(0, limit)
      .map((r) => r.id);
  }

  async claim(id: string, now: Date, lease: DeliveryLease): Promise<DeliveryClaim> {
    const row = this.row(id);
    if (!row || row.status !== 'pending') return { kind: 'settled' };
    if (heldAt(row, now)) return { kind: 'busy', until: new Date(row.lockedUntil!) };
    if (row.nextAttemptAt === null || row.nextAttemptAt > now) {
      return {
        kind: 'not_due',
        at: row.nextAttemptAt && row.nextAttemptAt > now ? new Date(row.nextAttemptAt) : new Date(now),
      };
    }
    Object.assign(row, { lockedUntil: new Date(lease.until), leaseToken: lease.token });
    return {
      kind: 'claimed',
      held: { delivery: toDelivery(row), state: stateOf(row) },
      secret: await this.secrets.get(row.userId),
    };
  }

  settleLocked<E>(
    id: string,
    decide: (current: DeliveryForSettlement) => Promise<Result<SettlementDecision, E>>,
  ): Promise<Result<void, E | DeliveryNotFound>> {
    return this.locks.hold(id, async () => {
      const row = this.row(id);
      if (!row) return err({ code: 'delivery_not_found' as const });
      const decision = await decide(stateOf(row));
      if (!decision.ok) return decision;
      const { settlement, at, retry } = decision.value;
      write(row, settlement, at);
      if (retry) await this.scheduler.schedule(retry);
      return ok(undefined);
    });
  }

  async settleIfUnchanged(
    id: string,
    expected: DeliveryForSettlement,
    settlement: DeliverySettlement,
    now: Date,
  ): Promise<boolean> {
    const row = this.row(id);
    // A null lease never matches, as `lease_token = NULL` never holds in SQL.
    if (!row || expected.leaseToken === null) return false;
    const current = stateOf(row);
    const unchanged = (Object.keys(expected) as Array<keyof DeliveryForSettlement>).every(
      (k) => current[k] === expected[k],
    );
    if (unchanged) write(row, settlement, now);
    return unchanged;
  }

  async cancelPending(c: CancelCriteria, now: Date): Promise<string[]> {
    const canceled = this.rows.filter(
      (r) =>
        r.userId === c.userId &&
        r.source.type === c.source.type &&
        r.source.id === c.source.id &&
        c.eventTypes.includes(r.eventType) &&
        r.status === 'pending' &&
        r.createdAt <= c.createdUpTo,
    );
    for (const row of canceled)
      Object.assign(row, { status: 'canceled', nextAttemptAt: null, updatedAt: new Date(now) });
    return canceled.map((r) => r.id);
  }

  restartOwned<E>(
    userId: number,
    id: string,
    decide: (delivery: WebhookDelivery) => Promise<Result<DeliveryRestart, E>>,
  ): Promise<Result<WebhookDelivery, E | DeliveryNotFound>> {
    return this.locks.hold(id, async () => {
      const row = this.row(id);
      if (!row || row.userId !== userId) return err({ code: 'delivery_not_found' as const });
      const decision = await decide(toDelivery(row));
      if (!decision.ok) return decision;
      const { maxAttempts, at, events = [] } = decision.value;
      // The lease stays, as in the real table: an attempt in flight counts as the first of the new round.
      Object.assign(row, {
        status: 'pending',
        roundAttempts: 0,
        maxAttempts,
        nextAttemptAt: new Date(at),
        updatedAt: new Date(at),
      });
      await this.outbox.add(events);
      return ok(toDelivery(row));
    });
  }

  async purgeSettledBefore(cutoff: Date, limit: number): Promise<number> {
    const gone = this.rows.filter((r) => r.status !== 'pending' && r.updatedAt < cutoff).slice(0, limit);
    for (const row of gone) this.rows.splice(this.rows.indexOf(row), 1);
    return gone.length;
  }

  /** Lease, round and limit of a delivery, which the public record does not show (for tests). */
  internals(
    id: string,
  ): Pick<Row, 'roundAttempts' | 'maxAttempts' | 'lockedUntil' | 'leaseToken' | 'requestId'> | null {
    const row = this.row(id);
    return row
      ? copy({
          roundAttempts: row.roundAttempts,
          maxAttempts: row.maxAttempts,
          lockedUntil: row.lockedUntil,
          leaseToken: row.leaseToken,
          requestId: row.requestId,
        })
      : null;
  }

  private row(id: string): Row | undefined {
    return this.rows.find((r) => r.id === id);
  }
}

const heldAt = (row: Row, now: Date): boolean => row.lockedUntil !== null && row.lockedUntil > now;

function stateOf(row: Row): DeliveryForSettlement {
  return {
    status: row.status,
    attemptsCount: row.attemptsCount,
    roundAttempts: row.roundAttempts,
    maxAttempts: row.maxAttempts,
    leaseToken: row.leaseToken,
  };
}

/** The delivery's new state and its attempt, written together; the lease is released. */
function write(row: Row, s: DeliverySettlement, now: Date): void {
  const a = s.attempt;
  Object.assign(row, {
    status: s.status,
    nextAttemptAt: s.nextAttemptAt && new Date(s.nextAttemptAt),
    roundAttempts: s.roundAttempts,
    attemptsCount: a.number,
    lastAttemptAt: new Date(a.at),
    lastStatusCode: a.statusCode,
    lastError: s.lastError,
    lockedUntil: null,
    leaseToken: null,
    updatedAt: new Date(now),
  });
  row.attempts.push(copy(a));
}

function toDelivery(row: Row): WebhookDelivery {
  const {
    roundAttempts: _r,
    maxAttempts: _m,
    requestId: _q,
    lockedUntil: _l,
    leaseToken: _t,
    attempts: _a,
    ...delivery
  } = row;
  return copy(delivery);
}
