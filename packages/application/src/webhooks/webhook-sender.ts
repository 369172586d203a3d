import {
  AttemptError,
  ATTEMPT_TIMEOUT_MS,
  err,
  isSuccessStatus,
  ok,
  judgeAttempt,
  responseExcerpt,
  retryAfterSeconds,
  secretsInForce,
  settleAttempt,
} from '@voiceplane/domain';
import { SigningSecret, SigningSecretRepository } from '../ports';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { OutboundHttpClient, OutboundResponse } from '../ports';
import { JobScheduler, NewJob, WorkLogger } from '../events';
import {
  DeliveryForSettlement,
  DeliveryLease,
  DeliverySettlement,
  HeldDelivery,
  WebhookDeliveryRepository,
} from './ports';
import { DELIVERY_ATTEMPT_JOB, deliveryJobKey } from './webhook-deliveries';

/** Durable consumer name of the first-attempt path. */
export const DELIVERY_SENDER_CONSUMER = 'webhook-sender';
/** Job kind and key of the sweep that re-drives overdue deliveries. */
export const DELIVERY_SWEEP_JOB = 'webhook.delivery.sweep';
export const DELIVERY_SWEEP_KEY = 'webhook-delivery-sweep';
/**
 * How often the sweep for lost deliveries runs. Losing one takes a crash or a broker outage, so a
 * minute more before it is found costs little, and an idle server wakes for it once a minute.
 */
export const DELIVERY_SWEEP_EVERY_MS = 60_000;
/**
 * A pending delivery still not attempted this long after it was due lost its way: its bus message
 * (broker outage, a crashed in-process bus) or its worker (killed mid-attempt; longer than a lease).
 */
export const DELIVERY_OVERDUE_AFTER_MS = 30_000;

export interface AttemptReport {
  /** The receiver answered 2xx. */
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly durationMs: number;
  readonly error: AttemptError | null;
}

/** Runs the write of an attempt's outcome (`settle`) and answers its report. */
export type SettleIn = (settle: () => Promise<AttemptReport>) => Promise<AttemptReport>;

export interface WebhookSenderOptions {
  /**
   * How long an attempt holds its delivery. Longer than an attempt can take (10 s timeout): a
   * worker that dies mid-attempt leaves the delivery to others once it runs out.
   */
  readonly leaseMs?: number;
  /** How often the overdue sweep runs (DELIVERY_SWEEP_EVERY_MS by default). */
  readonly sweepEveryMs?: number;
}

/** What an attempt goes out through: the outbound client, the scheduler of retries and their jitter. */
export interface WebhookSending {
  readonly http: OutboundHttpClient;
  readonly scheduler: JobScheduler;
  /** Uniform in [0, 1): the retry jitter. */
  readonly random: () => number;
}

/**
 * Makes delivery attempts. Whoever asks (the bus for a first attempt, the scheduler for retries and
 * for what the overdue sweep finds), an attempt happens only if the delivery is pending, due and
 * not held by another attempt. That makes every path idempotent by the delivery's own state: a
 * duplicate `webhook.delivery.requested` (1:1 with its delivery) finds it held, settled or not yet
 * due again, and racing workers never double-send on one schedule.
 */
export class WebhookSender {
  readonly leaseMs: number;
  private readonly sweepEveryMs: number;
  private readonly http: OutboundHttpClient;
  private readonly scheduler: JobScheduler;
  private readonly random: () => number;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly secrets: SigningSecretRepository,
    sending: WebhookSending,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly logger: WorkLogger,
    options: WebhookSenderOptions = {},
  ) {
    ({ http: this.http, scheduler: this.scheduler, random: this.random } = sending);
    this.leaseMs = options.leaseMs ?? 30_000;
    this.sweepEveryMs = options.sweepEveryMs ?? DELIVERY_SWEEP_EVERY_MS;
  }

  newLease(now: Date): DeliveryLease {
    return { token: this.ids.token('lease_', 22), until: new Date(now.getTime() + this.leaseMs) };
  }

  /**
   * Attempts the delivery if it is due. Otherwise makes sure its job will come back when it can
   * be: at the end of another attempt's lease, or at its next attempt time.
   */
  async attemptIfDue(deliveryId: string): Promise<void> {
    const now = this.clock.now();
    const lease = this.newLease(now);
    const claim = await this.deliveries.claim(deliveryId, now, lease);
    switch (claim.kind) {
      case 'settled':
        return;
      case 'busy':
        return this.scheduleAttempt(deliveryId, claim.until);
      case 'not_due':
        return this.scheduleAttempt(deliveryId, claim.at);
      case 'claimed':
        await this.attempt(claim.held, claim.secret);
    }
  }

  /**
   * One signed POST of a delivery this caller holds the lease of (a test ping), and its outcome
   * written — within `settleIn` when given (the caller's transaction around the write).
   */
  async attemptClaimed(held: HeldDelivery, settleIn?: SettleIn): Promise<AttemptReport> {
    return this.attempt(held, await this.secrets.get(held.delivery.userId), settleIn);
  }

  private async attempt(
    { delivery, state }: HeldDelivery,
    secret: SigningSecret | null,
    settleIn: SettleIn = (settle) => settle(),
  ): Promise<AttemptReport> {
    const startedAt = this.clock.now();
    if (!secret) throw new Error(`user ${delivery.userId} has no signing secret`);
    const response = await this.http.send({
      method: 'POST',
      url: delivery.targetUrl,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      body: delivery.body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      eventType: delivery.eventType,
      signing: { secrets: secretsInForce(secret, startedAt), webhookId: delivery.webhookId },
    });
    // A 2xx whose answer was cut at the size cap settles as received (retrying would deliver twice),
    // but whoever waits for the report is told it did not end well.
    const report: AttemptReport = {
      ok: isSuccessStatus(response.statusCode) && response.error === null,
      statusCode: response.statusCode,
      durationMs: response.durationMs,
      error: response.error,
    };
    return settleIn(async () => {
      await this.settle(delivery.id, state, startedAt, response);
      return report;
    });
  }

  /**
   * Schedules an attempt for every delivery overdue at `now` (see DELIVERY_OVERDUE_AFTER_MS), then
   * the next sweep. Returns how many it found.
   */
  async sweepOverdue(limit = 500): Promise<number> {
    const now = this.clock.now();
    const overdue = await this.deliveries.overdue(new Date(now.getTime() - DELIVERY_OVERDUE_AFTER_MS), now, limit);
    for (const id of overdue) await this.scheduleAttempt(id, now);
    if (overdue.length > 0) this.logger.warn({ deliveries: overdue.length }, 'overdue webhook deliveries rescheduled');
    await this.scheduler.schedule({
      kind: DELIVERY_SWEEP_JOB,
      key: DELIVERY_SWEEP_KEY,
      payload: null,
      runAt: new Date(now.getTime() + this.sweepEveryMs),
    });
    return overdue.length;
  }

  /**
   * Usually the row is still as the claim left it (only a cancel or replay changes it under a
   * lease), so the outcome judged from that state is written by one statement that applies only
   * if it still is. Otherwise, and whenever a retry job must be written with it, the row is locked
   * and the outcome judged again from what it holds now.
   */
  private async settle(
    deliveryId: string,
    claimed: DeliveryForSettlement,
    startedAt: Date,
    response: OutboundResponse,
  ): Promise<void> {
    const now = this.clock.now();
    const outcome = this.judge(claimed, startedAt, response, now);
    if (outcome.nextAttemptAt === null && (await this.deliveries.settleIfUnchanged(deliveryId, claimed, outcome, now)))
      return;
    const settled = await this.deliveries.settleLocked(deliveryId, async (current) => {
      // Only when an attempt outlived its lease (a stalled process): whoever holds the delivery
      // now writes its own attempt, and two writers would number attempts twice.
      if (current.leaseToken !== claimed.leaseToken) return err({ code: 'lease_lost' as const });
      const lockedAt = this.clock.now();
      const settlement = this.judge(current, startedAt, response, lockedAt);
      // A settled delivery needs no job; one left over from an earlier reschedule finds it settled
      // and is deleted by the scheduler, so the common path writes nothing there.
      return ok({
        settlement,
        at: lockedAt,
        retry: settlement.nextAttemptAt ? this.attemptJob(deliveryId, settlement.nextAttemptAt) : undefined,
      });
    });
    if (!settled.ok)
      this.logger.warn(
        { deliveryId, statusCode: response.statusCode },
        'delivery attempt finished after its lease ran out; outcome not recorded',
      );
  }

  /** What the delivery becomes after this attempt, given the row's state at `now`. */
  private judge(
    current: DeliveryForSettlement,
    startedAt: Date,
    response: OutboundResponse,
    now: Date,
  ): DeliverySettlement {
    const roundAttempts = current.roundAttempts + 1;
    const verdict = judgeAttempt(
      {
        statusCode: response.statusCode,
        error: response.error,
        retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'], now),
      },
      roundAttempts,
      current.maxAttempts,
      this.random(),
    );
    const next = settleAttempt(current.status, verdict, now);
    return {
      status: next.status,
      nextAttemptAt: next.nextAttemptAt,
      roundAttempts,
      lastError: verdict.kind === 'succeeded' ? null : response.error,
      attempt: {
        number: current.attemptsCount + 1,
        at: startedAt,
        statusCode: response.statusCode,
        durationMs: response.durationMs,
        error: response.error,
        responseExcerpt: responseExcerpt(response.body),
      },
    };
  }

  private scheduleAttempt(deliveryId: string, runAt: Date): Promise<void> {
    return this.scheduler.schedule(this.attemptJob(deliveryId, runAt));
  }

  private attemptJob(deliveryId: string, runAt: Date): NewJob {
    return { kind: DELIVERY_ATTEMPT_JOB, key: deliveryJobKey(deliveryId), payload: { delivery_id: deliveryId }, runAt };
  }
}
