import {
  assistantCancellationConsumer,
  deliveryAttemptJobs,
  deliverySenderConsumer,
  deliverySweepJobs,
  DELIVERY_SWEEP_EVERY_MS,
  DELIVERY_SWEEP_JOB,
  DELIVERY_SWEEP_KEY,
  DeliveryLog,
  SendTestWebhook,
  SigningSecrets,
  TOKENS,
  WebhookDeliveries,
  WebhookSender,
} from '@voiceplane/application';
import { DELIVERY_RETENTION_DAYS } from '@voiceplane/domain';
import { WebhookController } from '@voiceplane/adapter-http';
import { TypeormOutbox, TypeormWebhookDeliveryRepository } from '@voiceplane/adapter-typeorm';
import { everyInterval, safetyPollMs } from './every-interval';
import { ApiModule, BackgroundTask } from './module';

/**
 * First attempts handled at once per process (bus prefetch). An attempt mostly waits (two commits
 * and a POST): in the webhook-delivery bench 64 kept the RabbitMQ worker ~20 % ahead of 32.
 */
const SENDER_PREFETCH = 64;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Outgoing webhook delivery: the delivery log, the sender with its retries and
 * overdue sweep, the test send, and the cancellation of pending deliveries when an assistant's
 * webhook goes away. Its consumers and jobs run on the event backbone.
 */
export const webhookDeliveryModule: ApiModule = ({ container: c, config, database, logger }) => {
  c.bind(TOKENS.WebhookDeliveryRepository)
    .toDynamicValue(
      (ctx) => new TypeormWebhookDeliveryRepository(database, ctx.get(TypeormOutbox), ctx.get(TOKENS.JobScheduler)),
    )
    .inSingletonScope();
  c.bind(TOKENS.WebhookDeliveries)
    .toDynamicValue(
      (ctx) =>
        new WebhookDeliveries(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.WebhookDeliveryRepository),
          ctx.get(TOKENS.Outbox),
          ctx.get(TOKENS.JobScheduler),
          ctx.get(TOKENS.Ids),
          ctx.get(TOKENS.Clock),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.WebhookSender)
    .toDynamicValue(
      (ctx) =>
        new WebhookSender(
          ctx.get(TOKENS.WebhookDeliveryRepository),
          ctx.get(TOKENS.SigningSecretRepository),
          { http: ctx.get(TOKENS.OutboundHttpClient), scheduler: ctx.get(TOKENS.JobScheduler), random: Math.random },
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.Ids),
          logger.child({ component: 'webhooks' }),
          { sweepEveryMs: safetyPollMs(config, DELIVERY_SWEEP_EVERY_MS) },
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.SendTestWebhook)
    .toDynamicValue(
      (ctx) =>
        new SendTestWebhook(
          ctx.get(TOKENS.WebhookDeliveryRepository),
          ctx.get(TOKENS.WebhookSender),
          ctx.get(TOKENS.Ids),
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.DeliveryLog)
    .toDynamicValue((ctx) => new DeliveryLog(ctx.get(TOKENS.WebhookDeliveryRepository)))
    .inSingletonScope();
  c.bind(TOKENS.SigningSecrets)
    .toDynamicValue(
      (ctx) =>
        new SigningSecrets(
          ctx.get(TOKENS.SigningSecretRepository),
          ctx.get(TOKENS.Ids),
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(WebhookController).toSelf().inSingletonScope();

  c.bind(TOKENS.EventConsumer)
    .toDynamicValue((ctx) => deliverySenderConsumer(ctx.get(TOKENS.WebhookSender), SENDER_PREFETCH))
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue((ctx) =>
      assistantCancellationConsumer(
        ctx.get(TOKENS.UnitOfWork),
        ctx.get(TOKENS.ProcessedEvents),
        ctx.get(TOKENS.WebhookDeliveries),
      ),
    )
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue((ctx) => deliveryAttemptJobs(ctx.get(TOKENS.WebhookSender)))
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue((ctx) => deliverySweepJobs(ctx.get(TOKENS.WebhookSender)))
    .inSingletonScope();

  // The overdue sweep reschedules itself after each run; starting the background work (re)starts the cycle.
  const sweepCycle: BackgroundTask = {
    name: 'webhook-delivery-sweep',
    async start() {
      await c.get(TOKENS.JobScheduler).schedule({
        kind: DELIVERY_SWEEP_JOB,
        key: DELIVERY_SWEEP_KEY,
        payload: null,
        runAt: c.get(TOKENS.Clock).now(),
      });
    },
    async stop() {},
  };
  // Deliveries past their 30 days go in batches, so one sweep never holds a long lock.
  const retention = everyInterval(
    'webhook-delivery-retention',
    HOUR_MS,
    async () => {
      const cutoff = new Date(c.get(TOKENS.Clock).now().getTime() - DELIVERY_RETENTION_DAYS * DAY_MS);
      const deliveries = c.get(TOKENS.WebhookDeliveryRepository);
      while ((await deliveries.purgeSettledBefore(cutoff, 1_000)) === 1_000);
    },
    logger,
  );

  return {
    routeQuotas: [
      {
        method: 'POST',
        routes: ['/api/user/webhooks/test'],
        buckets: (principal) => [{ key: `webhook-test:${principal.userId}`, limit: 10, windowSeconds: 60 }],
      },
    ],
    background: [sweepCycle, retention],
  };
};
