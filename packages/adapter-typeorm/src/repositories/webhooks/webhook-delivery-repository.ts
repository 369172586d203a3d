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
  Page,
  PageRequest,
  SettlementDecision,
  SigningSecret,
  WebhookDeliveryRepository,
} from '@voiceplane/application';
import {
  AttemptError,
  DeliveryAttempt,
  DeliverySourceType,
  DeliveryStatus,
  err,
  ok,
  Result,
  WebhookDelivery,
} from '@voiceplane/domain';
import { Database } from '../../database';
import { WebhookDeliveryAttemptRecord, WebhookDeliveryRecord, WebhookSigningSecretRecord } from '../../records';
import { Count, num, pageClause } from '../rows';
import type { TypeormOutbox } from '../outbox-writer';

const COLUMNS = `seq, id, user_id, event_type, webhook_id, target_url, body, status, attempts_count, next_attempt_at,
  last_attempt_at, last_status_code, last_error, source_type, source_id, subject, created_at, updated_at`;

/** The columns of COLUMNS. */
type DeliveryRow = Pick<
  WebhookDeliveryRecord,
  | 'seq'
  | 'id'
  | 'user_id'
  | 'event_type'
  | 'webhook_id'
  | 'target_url'
  | 'body'
  | 'status'
  | 'attempts_count'
  | 'next_attempt_at'
  | 'last_attempt_at'
  | 'last_status_code'
  | 'last_error'
  | 'source_type'
  | 'source_id'
  | 'subject'
  | 'created_at'
  | 'updated_at'
>;
type SettlementRow = Pick<
  WebhookDeliveryRecord,
  'status' | 'attempts_count' | 'round_attempts' | 'max_attempts' | 'lease_token'
>;
/** The owner's signing secret, LEFT JOINed to a claimed row: all null when the account has none. */
type ClaimedSecretRow = {
  [K in 'secret' | 'previous_secret' | 'previous_expires_at']: WebhookSigningSecretRecord[K] | null;
} & { secret_created_at: Date | null };
type ClaimedRow = DeliveryRow & SettlementRow & ClaimedSecretRow;

function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    userId: num(r.user_id),
    eventType: r.event_type,
    webhookId: r.webhook_id,
    targetUrl: r.target_url,
    body: r.body,
    status: r.status as DeliveryStatus,
    attemptsCount: r.attempts_count,
    nextAttemptAt: r.next_attempt_at,
    lastAttemptAt: r.last_attempt_at,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error as AttemptError | null,
    source: { type: r.source_type as DeliverySourceType, id: num(r.source_id) },
    subject: (r.subject as WebhookDelivery['subject']) ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toSettlementState(r: SettlementRow): DeliveryForSettlement {
  return {
    status: r.status as DeliveryStatus,
    attemptsCount: r.attempts_count,
    roundAttempts: r.round_attempts,
    maxAttempts: r.max_attempts,
    leaseToken: r.lease_token,
  };
}

/** The signing secret joined to a claimed row (null when the account has none). */
function toClaimedSecret(r: ClaimedSecretRow): SigningSecret | null {
  if (r.secret === null || r.secret_created_at === null) return null;
  return {
    secret: r.secret,
    createdAt: r.secret_created_at,
    previousSecret: r.previous_secret,
    previousExpiresAt: r.previous_expires_at,
  };
}

function toAttempt(r: WebhookDeliveryAttemptRecord): DeliveryAttempt {
  return {
    number: r.number,
    at: r.at,
    statusCode: r.status_code,
    durationMs: r.duration_ms,
    error: r.error as AttemptError | null,
    responseExcerpt: r.response_excerpt,
  };
}

export class TypeormWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(
    private readonly db: Database,
    private readonly outbox: TypeormOutbox,
    private readonly scheduler: JobScheduler,
  ) {}

  async insert(d: NewDelivery): Promise<WebhookDelivery> {
    const events = d.events ?? [];
    const params: unknown[] = [
      d.id,
      d.userId,
      d.eventType,
      d.webhookId,
      d.targetUrl,
      d.body,
      d.maxAttempts,
      d.now,
      d.source.type,
      d.source.id,
      d.subject === null ? null : JSON.stringify(d.subject),
      d.requestId,
      d.lease?.until ?? null,
      d.lease?.token ?? null,
    ];
    const outbox = events.length > 0 ? this.outbox.insertStatement(events, params.length + 1) : null;
    // Raw SQL: the delivery and its events in one statement (a data-modifying CTE), so the pair is
    // atomic without a transaction block of its own and costs one round trip.
    const rows = await this.db.query<DeliveryRow>(
      `WITH delivery AS (
         INSERT INTO webhook_deliveries (id, user_id, event_type, webhook_id, target_url, body, status, max_attempts, next_attempt_at,
           source_type, source_id, subject, request_id, locked_until, lease_token, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10, $11, $12, $13, $14, $8, $8)
         RETURNING ${COLUMNS})${outbox ? `, events AS (${outbox.sql})` : ''}
       SELECT * FROM delivery`,
      outbox ? [...params, ...outbox.params] : params,
      { prepared: true },
    );
    if (outbox) this.outbox.written();
    return toDelivery(rows[0]);
  }

  async find(userId: number, id: string): Promise<WebhookDelivery | null> {
    const r = await this.db.one<DeliveryRow>(
      `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    return r ? toDelivery(r) : null;
  }

  async attempts(deliveryId: string): Promise<DeliveryAttempt[]> {
    const rows = await this.db.query<WebhookDeliveryAttemptRecord>(
      `SELECT a.* FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.seq = a.delivery_seq
        WHERE d.id = $1 ORDER BY a.number`,
      [deliveryId],
    );
    return rows.map(toAttempt);
  }

  async list(userId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const where = ['user_id = $1'];
    const params: unknown[] = [userId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(`${sql} = $${params.length}`);
    };
    if (filter.status !== undefined) add('status', filter.status);
    if (filter.eventType !== undefined) add('event_type', filter.eventType);
    if (filter.sourceType !== undefined) add('source_type', filter.sourceType);
    if (filter.sourceId !== undefined) add('source_id', filter.sourceId);
    const condition = where.join(' AND ');
    const limit = pageClause(page, params.length + 1);
    const [rows, total] = await Promise.all([
      this.db.query<DeliveryRow>(
        `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${condition} ORDER BY seq DESC ${limit.sql}`,
        [...params, ...limit.params],
      ),
      this.db.one<Count>(`SELECT count(*) AS n FROM webhook_deliveries WHERE ${condition}`, params),
    ]);
    return { items: rows.map(toDelivery), total: num(total?.n) };
  }

  async overdue(dueBefore: Date, now: Date, limit: number): Promise<string[]> {
    // Served by the partial index on pending deliveries: few rows are pending at any time.
    const rows = await this.db.query<Pick<WebhookDeliveryRecord, 'id'>>(
      `SELECT id FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $2)
        ORDER BY next_attempt_at LIMIT $3`,
      [dueBefore, now, limit],
    );
    return rows.map((r) => r.id);
  }

  async claim(id: string, now: Date, lease: DeliveryLease): Promise<DeliveryClaim> {
    // The attempt signs with the owner's secret as it is now: read in the same statement, which
    // saves the attempt a round trip.
    // A lease keeps live workers apart, which takes visibility, not durability: on its own
    // statement the claim commits without waiting for the WAL flush. A database crash can only
    // forget the lease — the delivery is then free at once, as when a lease runs out — and the
    // settlement's flushed commit makes the claim durable before it (the WAL is written in order).
    // Inside a caller's transaction the setting would cover the caller's writes: not there.
    const asyncCommit = this.db.inTransaction ? '' : `, set_config('synchronous_commit', 'off', true) AS async_commit`;
    // Raw SQL: a conditional UPDATE takes the lease only while the delivery is due and free.
    const claimed = await this.db.query<ClaimedRow>(
      `WITH claimed AS (
         UPDATE webhook_deliveries SET locked_until = $3, lease_token = $4
          WHERE id = $1 AND status = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until <= $2)
         RETURNING ${COLUMNS}, round_attempts, max_attempts, lease_token${asyncCommit})
       SELECT c.*, s.secret, s.created_at AS secret_created_at, s.previous_secret, s.previous_expires_at
         FROM claimed c LEFT JOIN webhook_signing_secrets s ON s.user_id = c.user_id`,
      [id, now, lease.until, lease.token],
      { prepared: true },
    );
    if (claimed.length === 1) {
      const r = claimed[0];
      return {
        kind: 'claimed',
        held: { delivery: toDelivery(r), state: toSettlementState(r) },
        secret: toClaimedSecret(r),
      };
    }
    // Not claimable: say why, so the caller knows when to come back.
    const r = await this.db.one<Pick<WebhookDeliveryRecord, 'status' | 'next_attempt_at' | 'locked_until'>>(
      `SELECT status, next_attempt_at, locked_until FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    if (!r || r.status !== 'pending') return { kind: 'settled' };
    const lockedUntil = r.locked_until;
    if (lockedUntil && lockedUntil > now) return { kind: 'busy', until: lockedUntil };
    const next = r.next_attempt_at;
    // Pending with no time cannot happen; if it ever did, "now" puts it back on the schedule.
    return { kind: 'not_due', at: next && next > now ? next : now };
  }

  settleLocked<E>(
    id: string,
    decide: (current: DeliveryForSettlement) => Promise<Result<SettlementDecision, E>>,
  ): Promise<Result<void, E | DeliveryNotFound>> {
    return this.db.transaction(async () => {
      // Raw SQL: a row lock, so settling waits for a cancel or replay that holds the row.
      const r = await this.db.one<SettlementRow>(
        `SELECT status, attempts_count, round_attempts, max_attempts, lease_token FROM webhook_deliveries WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!r) return err({ code: 'delivery_not_found' as const });
      const decision = await decide(toSettlementState(r));
      if (!decision.ok) return decision;
      const { settlement, at, retry } = decision.value;
      await this.writeSettlement(id, settlement, at, '', []);
      if (retry) await this.scheduler.schedule(retry);
      return ok(undefined);
    });
  }

  async settleIfUnchanged(
    id: string,
    expected: DeliveryForSettlement,
    s: DeliverySettlement,
    now: Date,
  ): Promise<boolean> {
    // One statement: if a cancel or replay is changing the row meanwhile, the UPDATE waits for it
    // and re-checks these conditions against what it committed.
    // Raw SQL: a conditional UPDATE (compare-and-set on the state read before the attempt).
    const written = await this.writeSettlement(
      id,
      s,
      now,
      'AND lease_token = $13 AND status = $14 AND attempts_count = $15 AND round_attempts = $16 AND max_attempts = $17',
      [expected.leaseToken, expected.status, expected.attemptsCount, expected.roundAttempts, expected.maxAttempts],
    );
    return written > 0;
  }

  /** The delivery's new state and its attempt row together, where the row also meets `condition`; returns rows written. */
  private async writeSettlement(
    id: string,
    s: DeliverySettlement,
    now: Date,
    condition: string,
    conditionParams: unknown[],
  ): Promise<number> {
    const a = s.attempt;
    // Raw SQL: the new state and its attempt row in one statement (a data-modifying CTE).
    const rows = await this.db.query<{ n: number }>(
      `WITH delivery AS (
         UPDATE webhook_deliveries
            SET status = $2, next_attempt_at = $3, round_attempts = $4, attempts_count = $5, last_attempt_at = $6,
                last_status_code = $7, last_error = $8, locked_until = NULL, lease_token = NULL, updated_at = $9
          WHERE id = $1 ${condition}
         RETURNING seq),
       attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_seq, number, at, status_code, duration_ms, error, response_excerpt)
         SELECT seq, $5, $6, $7, $10, $11, $12 FROM delivery
         RETURNING 1)
       SELECT count(*)::int AS n FROM attempt`,
      [
        id,
        s.status,
        s.nextAttemptAt,
        s.roundAttempts,
        a.number,
        a.at,
        a.statusCode,
        s.lastError,
        now,
        a.durationMs,
        a.error,
        a.responseExcerpt,
        ...conditionParams,
      ],
      { prepared: true },
    );
    return num(rows[0]?.n);
  }

  async cancelPending(c: CancelCriteria, now: Date): Promise<string[]> {
    if (c.eventTypes.length === 0) return [];
    // Raw SQL: a conditional UPDATE (status = 'pending') cancels only what has not settled, and says which.
    const rows = await this.db.query<Pick<WebhookDeliveryRecord, 'id'>>(
      `WITH canceled AS (
         UPDATE webhook_deliveries SET status = 'canceled', next_attempt_at = NULL, updated_at = $5
          WHERE user_id = $1 AND source_type = $2 AND source_id = $3 AND event_type = ANY($4) AND status = 'pending'
            AND created_at <= $6
         RETURNING id)
       SELECT id FROM canceled`,
      [c.userId, c.source.type, c.source.id, c.eventTypes, now, c.createdUpTo],
    );
    return rows.map((r) => r.id);
  }

  restartOwned<E>(
    userId: number,
    id: string,
    decide: (delivery: WebhookDelivery) => Promise<Result<DeliveryRestart, E>>,
  ): Promise<Result<WebhookDelivery, E | DeliveryNotFound>> {
    return this.db.transaction(async () => {
      // Raw SQL: a row lock, so a replay and a settlement of the same delivery take turns.
      const r = await this.db.one<DeliveryRow>(
        `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
      if (!r) return err({ code: 'delivery_not_found' as const });
      const decision = await decide(toDelivery(r));
      if (!decision.ok) return decision;
      const { maxAttempts, at, events = [] } = decision.value;
      // The lease stays: an attempt still in flight (of a canceled delivery) finishes and counts
      // as the first of the new round.
      const rows = await this.db.query<DeliveryRow>(
        `WITH restarted AS (
           UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, max_attempts = $2, next_attempt_at = $3, updated_at = $3
            WHERE id = $1
           RETURNING ${COLUMNS})
         SELECT * FROM restarted`,
        [id, maxAttempts, at],
      );
      await this.outbox.add(events);
      return ok(toDelivery(rows[0]));
    });
  }

  async purgeSettledBefore(cutoff: Date, limit: number): Promise<number> {
    // Raw SQL: DELETE … LIMIT through a subquery keeps each batch's locks short; TypeORM's delete has no LIMIT.
    const r = await this.db.one<{ n: number }>(
      `WITH gone AS (
         DELETE FROM webhook_deliveries WHERE seq IN (
           SELECT seq FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < $1 LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff, limit],
    );
    return r?.n ?? 0;
  }
}
