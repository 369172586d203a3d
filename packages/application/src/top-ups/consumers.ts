import { oncePerEvent } from '../events';
import { EventConsumer, JobHandler, ProcessedEvents } from '../events';
import { UnitOfWork } from '../ports';
import { BALANCE_LOW_TOPIC, BalanceLowMessage } from './auto-recharge-trigger';
import { BILLING_EVENT_RECEIVED_TOPIC, BillingEventReceivedMessage } from './billing-ingress';
import { AUTO_RECHARGE_CHARGE_JOB, AutoChargeRequest, ChargeAutoTopUp } from './charge-auto-top-up';
import { ProcessBillingEvent } from './process-billing-event';
import { StartAutoRecharge } from './start-auto-recharge';

export const AUTO_RECHARGE_START_CONSUMER = 'auto-recharge-start';
export const AUTO_RECHARGE_CHARGE_CONSUMER = 'auto-recharge-charge';
export const BILLING_EVENTS_CONSUMER = 'billing-events';

/** A low balance starts at most one recharge (its effects are database writes: once per event). */
export function autoRechargeStartConsumer(
  uow: UnitOfWork,
  processed: ProcessedEvents,
  start: StartAutoRecharge,
): EventConsumer {
  return {
    topicPattern: BALANCE_LOW_TOPIC,
    options: { consumer: AUTO_RECHARGE_START_CONSUMER, maxRetries: 10, retryDelayMs: 2_000 },
    handle: oncePerEvent(uow, processed, AUTO_RECHARGE_START_CONSUMER, async (message) => {
      await start.execute(message.payload as BalanceLowMessage);
    }),
  };
}

/** Charges the card of a started recharge; idempotent by the top-up's status and the provider's idempotency key. */
export function autoRechargeChargeConsumer(charge: ChargeAutoTopUp): EventConsumer {
  return {
    topicPattern: 'auto_recharge.started',
    options: { consumer: AUTO_RECHARGE_CHARGE_CONSUMER, maxRetries: 5, retryDelayMs: 5_000 },
    handle: async (message) => {
      const payload = message.payload as { user_id: number; top_up_id: number };
      await charge.execute({ user_id: payload.user_id, top_up_id: payload.top_up_id, attempt: 1 });
    },
  };
}

/** Later attempts of a charge whose provider could not be reached. */
export function autoRechargeChargeRetries(charge: ChargeAutoTopUp): JobHandler {
  return { kind: AUTO_RECHARGE_CHARGE_JOB, handle: (job) => charge.execute(job.payload as AutoChargeRequest) };
}

/** Provider events from the inbox; idempotent by the inbox's processed mark and the settlement. */
export function billingEventConsumer(process: ProcessBillingEvent): EventConsumer {
  return {
    topicPattern: BILLING_EVENT_RECEIVED_TOPIC,
    options: { consumer: BILLING_EVENTS_CONSUMER, maxRetries: 10, retryDelayMs: 5_000 },
    handle: (message) => process.execute((message.payload as BillingEventReceivedMessage).inbox_id),
  };
}
