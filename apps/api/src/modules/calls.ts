import type { Container } from 'inversify';
import type { Logger } from 'pino';
import {
  assistantCancellationConsumer, Clock, deliveryAttemptJobs, deliverySenderConsumer, deliverySweepJobs, DELIVERY_SWEEP_JOB,
  DELIVERY_SWEEP_KEY, Doorbell, EventConsumer, Ids, JobHandler, JobRunner, MessageBus, OutboxRelay, SendTestWebhook, TOKENS,
  WebhookDeliveries, WebhookDeliveryRepository, WebhookSender,
} from '@voiceplane/application';
import { DELIVERY_RETENTION_DAYS } from '@voiceplane/domain';
import { WebhookController, webhookRouteDocs } from '@voiceplane/adapter-http';
import {
  Database, EventRetention, JOBS_CHANNEL, PostgresJobStore, PostgresNotifications, PostgresProcessedEvents,
  PostgresUnpublishedEvents, TypeormWebhookDeliveryRepository,
} from '@voiceplane/adapter-typeorm';
import { ApiModule, BackgroundTask } from './module';

/**
 * First attempts handled at once per process (bus prefetch). An attempt mostly waits (two commits
 * and a POST): in the webhook-delivery bench 64 kept the RabbitMQ worker ~20 % ahead of 32.
 */
const SENDER_PREFETCH = 64;
/** Scheduled jobs (retries, sweeps) run at once per process. */
const JOB_CONCURRENCY = 32;
/**
 * The relay polls (a NOTIFY per outbox write would serialise the commits of every transaction that
 * raises an event; see migration OutboxPolling). The scheduler is woken by NOTIFY for jobs due at
 * once and polls for the rest, more often where notifications do not arrive (embedded PGlite).
 */
const POLL_MS = { relay: 50, jobsNotified: 1_000, jobsUnnotified: 250 };
/** Published events and processed-event records are kept this long (redeliveries come within minutes). */
const EVENT_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The event backbone (outbox relay, scheduler, idempotent consumers) and outgoing webhook delivery
 * (CONTRACT §12). The background task runs wherever the product's background work runs: inside the
 * api in single-process mode, in `apps/worker` when RabbitMQ carries the events.
 */
export const callsModule: ApiModule = ({ container: c, config, database, logger, bus }) => {
  const jobs = new PostgresJobStore(database);
  c.bind(TOKENS.JobScheduler).toConstantValue(jobs);
  c.bind(TOKENS.ProcessedEvents).toConstantValue(new PostgresProcessedEvents(database));
  c.bind(TOKENS.WebhookDeliveryRepository).toConstantValue(new TypeormWebhookDeliveryRepository(database));
  c.bind(TOKENS.WebhookDeliveries).toDynamicValue((ctx) => new WebhookDeliveries(
    ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.WebhookDeliveryRepository), ctx.get(TOKENS.Outbox), ctx.get(TOKENS.JobScheduler),
    ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(TOKENS.WebhookSender).toDynamicValue((ctx) => new WebhookSender(
    ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.WebhookDeliveryRepository), ctx.get(TOKENS.SigningSecretRepository),
    ctx.get(TOKENS.OutboundHttpClient), ctx.get(TOKENS.JobScheduler), ctx.get(TOKENS.Clock), ctx.get(TOKENS.Ids), Math.random,
    logger.child({ component: 'webhooks' }),
  )).inSingletonScope();
  c.bind(TOKENS.SendTestWebhook).toDynamicValue((ctx) => new SendTestWebhook(
    ctx.get(TOKENS.WebhookDeliveryRepository), ctx.get(TOKENS.WebhookSender), ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock),
  )).inSingletonScope();
  c.bind(WebhookController).toSelf().inSingletonScope();

  c.bind(TOKENS.EventConsumer).toDynamicValue((ctx) => deliverySenderConsumer(ctx.get(TOKENS.WebhookSender), SENDER_PREFETCH)).inSingletonScope();
  c.bind(TOKENS.EventConsumer).toDynamicValue((ctx) =>
    assistantCancellationConsumer(ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.ProcessedEvents), ctx.get(TOKENS.WebhookDeliveries))).inSingletonScope();
  c.bind(TOKENS.JobHandler).toDynamicValue((ctx) => deliveryAttemptJobs(ctx.get(TOKENS.WebhookSender))).inSingletonScope();
  c.bind(TOKENS.JobHandler).toDynamicValue((ctx) => deliverySweepJobs(ctx.get(TOKENS.WebhookSender))).inSingletonScope();

  return {
    routeDocs: webhookRouteDocs,
    routeQuotas: [{
      method: 'POST',
      path: /^\/api\/user\/webhooks\/test$/,
      buckets: (principal) => [{ key: `webhook-test:${principal.userId}`, limit: 10, windowSeconds: 60 }],
    }],
    background: [eventBackbone(c, database, jobs, bus, logger), retentionSweeper(c, database, logger)],
  };
};


/**
 * Consumers first (a queue must exist before the relay publishes into it), then the scheduler,
 * then the relay. Consumers and job handlers are collected from every module at start, so the
 * order in which modules compose does not matter.
 */
function eventBackbone(c: Container, database: Database, jobs: PostgresJobStore, bus: MessageBus, logger: Logger): BackgroundTask {
  const log = logger.child({ component: 'event-backbone' });
  const relayBell = new Doorbell();
  const jobsBell = new Doorbell();
  const notifications = new PostgresNotifications(database, { [JOBS_CHANNEL]: jobsBell }, log);
  let relay: OutboxRelay | undefined;
  let runner: JobRunner | undefined;
  return {
    name: 'event-backbone',
    async start() {
      const clock = c.get<Clock>(TOKENS.Clock);
      for (const consumer of c.getAll<EventConsumer>(TOKENS.EventConsumer)) {
        // Both buses run handlers outside the publisher's async context, so the relay's transaction
        // never leaks into a consumer (contract-tested).
        await bus.subscribe(consumer.topicPattern, consumer.handle, consumer.options);
      }
      const notified = await notifications.start();
      if (!notified) log.info('database notifications do not reach this process (embedded PostgreSQL); polling instead');
      runner = new JobRunner(jobs, c.getAll<JobHandler>(TOKENS.JobHandler), clock, c.get<Ids>(TOKENS.Ids), jobsBell, log, {
        concurrency: JOB_CONCURRENCY,
        pollMs: notified ? POLL_MS.jobsNotified : POLL_MS.jobsUnnotified,
      });
      relay = new OutboxRelay(database, new PostgresUnpublishedEvents(database), bus, clock, relayBell, log, {
        pollMs: POLL_MS.relay,
      });
      // The overdue sweep reschedules itself after each run; this (re)starts the cycle.
      await jobs.schedule({ kind: DELIVERY_SWEEP_JOB, key: DELIVERY_SWEEP_KEY, payload: null, runAt: clock.now() });
      runner.start();
      relay.start();
    },
    async stop() {
      await relay?.stop();
      await runner?.stop();
      await notifications.stop();
    },
  };
}

/** Hourly: deliveries past their 30 days, and backbone records nobody will ask about again. */
function retentionSweeper(c: Container, database: Database, logger: Logger): BackgroundTask {
  const retention = new EventRetention(database);
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const now = c.get<Clock>(TOKENS.Clock).now().getTime();
    const deliveries = c.get<WebhookDeliveryRepository>(TOKENS.WebhookDeliveryRepository);
    const deliveryCutoff = new Date(now - DELIVERY_RETENTION_DAYS * DAY_MS);
    while ((await deliveries.purgeSettledBefore(deliveryCutoff, 1_000)) === 1_000);
    await retention.sweep(new Date(now - EVENT_RETENTION_DAYS * DAY_MS));
  };
  return {
    name: 'event-retention',
    async start() {
      timer = setInterval(() => {
        sweeping = sweep().catch((e: Error) => logger.warn({ err: e }, 'retention sweep failed'));
      }, 3_600_000);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}

