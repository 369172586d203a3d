import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { Doorbell, JobRunner, MessageBus, OutboxRelay, TOKENS } from '@voiceplane/application';
import {
  Database,
  EventRetention,
  JOBS_CHANNEL,
  JobsNotifier,
  OUTBOX_CHANNEL,
  OutboxNotifier,
  PostgresJobStore,
  PostgresNotifications,
  PostgresProcessedEvents,
  PostgresUnpublishedEvents,
} from '@voiceplane/adapter-typeorm';
import { EMBEDDED_SAFETY_POLL_MS, everyInterval } from './every-interval';
import { ApiModule, BackgroundTask } from './module';

/** Scheduled jobs (retries, sweeps) run at once per process. */
const JOB_CONCURRENCY = 32;
/**
 * Nothing polls for work: the relay is rung by each outbox writer after its commit, the scheduler by
 * each job scheduled (directly in this process; by a NOTIFY sent after the commit from a process
 * without a loop of its own, see CommitNotifier — not a trigger, which would serialise the writers'
 * commits, see migration OutboxPolling), and the scheduler sleeps until its next due job. What is
 * left is a safety poll, once a minute, for a wake-up lost with a stalled loop or a dropped LISTEN
 * connection. Embedded PGlite delivers no NOTIFY across sessions, but it serves a single process
 * whose writers ring their loops directly. Only a server that swallows notifications (a pooler in
 * transaction mode) keeps the short polls, since writers in other processes cannot reach this one.
 */
const POLL_MS = { relay: 60_000, jobs: 60_000, relayDeaf: 50, jobsDeaf: 250 };
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
export const eventBackboneModule: ApiModule = ({ container: c, config, database, logger, bus }) => {
  const jobsNotifier = new JobsNotifier(database, logger.child({ component: 'scheduler' }));
  const jobs = new PostgresJobStore(database, jobsNotifier);
  c.bind(TOKENS.JobScheduler).toConstantValue(jobs);
  c.bind(TOKENS.ProcessedEvents).toConstantValue(new PostgresProcessedEvents(database));
  // Without DATABASE_URL the database is embedded in this one process: every writer is in reach.
  const singleWriter = config.databaseUrl === null;
  return {
    background: [
      eventBackbone(c, database, { jobs, jobsNotifier, singleWriter }, bus, logger),
      backboneRetention(c, database, logger),
    ],
  };
};

interface Scheduler {
  readonly jobs: PostgresJobStore;
  readonly jobsNotifier: JobsNotifier;
  /** Every writer runs in this process (embedded database), so its rings reach the loops. */
  readonly singleWriter: boolean;
}

/**
 * Consumers first (a queue must exist before the relay publishes into it), then the scheduler,
 * then the relay. Consumers and job handlers are collected from every module at start, so the
 * order in which modules compose does not matter.
 */
function eventBackbone(
  c: Container,
  database: Database,
  { jobs, jobsNotifier, singleWriter }: Scheduler,
  bus: MessageBus,
  logger: Logger,
): BackgroundTask {
  const log = logger.child({ component: 'event-backbone' });
  const relayBell = new Doorbell();
  const jobsBell = new Doorbell();
  const notifications = new PostgresNotifications(
    database,
    { [JOBS_CHANNEL]: jobsBell, [OUTBOX_CHANNEL]: relayBell },
    log,
  );
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
      // Writers in this process ring the loops directly; the NOTIFY brings those of other processes.
      c.get(OutboxNotifier).wakeAlso(relayBell);
      jobsNotifier.wakeAlso(jobsBell);
      const notified = await notifications.start();
      const deaf = !notified && !singleWriter;
      if (deaf)
        log.warn('database notifications do not reach this process; polling for work written by other processes');
      runner = new JobRunner(jobs, c.getAll(TOKENS.JobHandler), clock, c.get(TOKENS.Ids), jobsBell, log, {
        concurrency: JOB_CONCURRENCY,
        pollMs: deaf ? POLL_MS.jobsDeaf : singleWriter ? EMBEDDED_SAFETY_POLL_MS : POLL_MS.jobs,
      });
      relay = new OutboxRelay(database, new PostgresUnpublishedEvents(database), bus, clock, relayBell, log, {
        pollMs: deaf ? POLL_MS.relayDeaf : singleWriter ? EMBEDDED_SAFETY_POLL_MS : POLL_MS.relay,
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
  return everyInterval(
    'event-retention',
    HOUR_MS,
    () => retention.sweep(new Date(c.get(TOKENS.Clock).now().getTime() - EVENT_RETENTION_DAYS * DAY_MS)),
    logger,
  );
}
