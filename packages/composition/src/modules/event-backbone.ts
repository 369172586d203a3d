import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { Doorbell, JobRunner, MessageBus, OutboxRelay, TOKENS } from '@voiceplane/application';
import {
  Database, EventRetention, JOBS_CHANNEL, OUTBOX_CHANNEL, OutboxNotifier, PostgresJobStore, PostgresNotifications, PostgresProcessedEvents, PostgresUnpublishedEvents,
} from '@voiceplane/adapter-typeorm';
import { everyInterval } from './every-interval';
import { ApiModule, BackgroundTask } from './module';

/** Scheduled jobs (retries, sweeps) run at once per process. */
const JOB_CONCURRENCY = 32;
/**
 * The relay is woken by the NOTIFY each outbox writer sends after its commit (OutboxNotifier; not a
 * trigger, which would serialise the writers' commits, see migration OutboxPolling) and polls as a
 * fallback. The scheduler is woken by NOTIFY for jobs due at once and polls for the rest. Both poll
 * more often where notifications do not arrive (embedded PGlite).
 */
const POLL_MS = { relayNotified: 1_000, relayUnnotified: 50, jobsNotified: 1_000, jobsUnnotified: 250 };
/** Published events and processed-event records are kept this long (redeliveries come within minutes). */
const EVENT_RETENTION_DAYS = 7;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The event backbone: outbox relay, scheduler and idempotent consumers. Its
 * background task runs wherever the product's background work runs: inside the api in
 * single-process mode, in `apps/worker` when RabbitMQ carries the events. Capabilities contribute
 * consumers (TOKENS.EventConsumer) and job handlers (TOKENS.JobHandler).
 */
export const eventBackboneModule: ApiModule = ({ container: c, database, logger, bus }) => {
  const jobs = new PostgresJobStore(database);
  c.bind(TOKENS.JobScheduler).toConstantValue(jobs);
  c.bind(TOKENS.ProcessedEvents).toConstantValue(new PostgresProcessedEvents(database));
  return { background: [eventBackbone(c, database, jobs, bus, logger), backboneRetention(c, database, logger)] };
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
  const notifications = new PostgresNotifications(database, { [JOBS_CHANNEL]: jobsBell, [OUTBOX_CHANNEL]: relayBell }, log);
  let relay: OutboxRelay | undefined;
  let runner: JobRunner | undefined;
  return {
    name: 'event-backbone',
    async start() {
      const clock = c.get(TOKENS.Clock);
      for (const consumer of c.getAll(TOKENS.EventConsumer)) {
        // Both buses run handlers outside the publisher's async context, so the relay's transaction
        // never leaks into a consumer (contract-tested).
        await bus.subscribe(consumer.topicPattern, consumer.handle, consumer.options);
      }
      // Writers in this process ring the relay directly; the NOTIFY brings those of other processes.
      c.get(OutboxNotifier).wakeAlso(relayBell);
      const notified = await notifications.start();
      if (!notified) log.info('database notifications do not reach this process (embedded PostgreSQL); polling instead');
      runner = new JobRunner(jobs, c.getAll(TOKENS.JobHandler), clock, c.get(TOKENS.Ids), jobsBell, log, {
        concurrency: JOB_CONCURRENCY,
        pollMs: notified ? POLL_MS.jobsNotified : POLL_MS.jobsUnnotified,
      });
      relay = new OutboxRelay(database, new PostgresUnpublishedEvents(database), bus, clock, relayBell, log, {
        pollMs: notified ? POLL_MS.relayNotified : POLL_MS.relayUnnotified,
      });
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

/** Hourly: backbone records nobody will ask about again. */
function backboneRetention(c: Container, database: Database, logger: Logger): BackgroundTask {
  const retention = new EventRetention(database);
  return everyInterval('event-retention', HOUR_MS, () => retention.sweep(new Date(c.get(TOKENS.Clock).now().getTime() - EVENT_RETENTION_DAYS * DAY_MS)), logger);
}
