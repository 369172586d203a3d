import {
  AutoRechargeSettingsService,
  AutoRechargeTrigger,
  autoRechargeChargeConsumer,
  autoRechargeChargeRetries,
  autoRechargeStartConsumer,
  BillingAccounts,
  BillingEventSource,
  BillingGateway,
  billingEventConsumer,
  ChargeAutoTopUp,
  ProcessBillingEvent,
  ReceiveBillingEvent,
  RECONCILE_INTERVAL_MS,
  ReconcileTopUps,
  SandboxCheckout,
  SettleTopUp,
  StartAutoRecharge,
  StartTopUp,
  TOKENS,
  TopUpQueries,
  type Token,
} from '@voiceplane/application';
import {
  AdminTopUpController,
  AutoRechargeController,
  BillingIngressController,
  SandboxBillingController,
  SandboxCheckoutController,
  SandboxFaults,
  TopUpController,
} from '@voiceplane/adapter-http';
import { SandboxBillingGateway } from '@voiceplane/adapter-sandbox';
import { createStripeClient, StripeBillingEvents, StripeBillingGateway } from '@voiceplane/adapter-stripe';
import {
  PostgresArmedBillingFaults,
  TypeormAutoRechargeRepository,
  TypeormBillingInbox,
  TypeormBillingProfileRepository,
  TypeormTopUpRepository,
} from '@voiceplane/adapter-typeorm';
import { everyInterval } from './every-interval';
import { ApiModule } from './module';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How long processed provider events stay in the inbox. */
const BILLING_EVENT_RETENTION_DAYS = 90;

/**
 * Paid top-ups and auto-recharge through the billing provider: the
 * sandbox unless BILLING_PROVIDER=stripe. Binds the charge follow-up BalanceService runs in every
 * charge's transaction, the consumers that start and charge recharges and process provider
 * events, the sandbox top-up `complete` route and the `billing_charge` fault while the provider is the sandbox.
 */
export const billingGatewayModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log = logger.child({ module: 'billing' });
  const get = <T>(t: Token<T>): T => c.get(t);
  const faults = new PostgresArmedBillingFaults(database);
  let gateway: BillingGateway;
  const sources: BillingEventSource[] = [];
  if (config.billingProvider === 'stripe' && config.stripe) {
    const stripe = createStripeClient(config.stripe);
    gateway = new StripeBillingGateway(stripe, { returnUrl: config.publicBaseUrl });
    sources.push(new StripeBillingEvents(stripe, config.stripe.webhookSecret));
  } else {
    gateway = new SandboxBillingGateway(config.publicBaseUrl, faults, () => get(TOKENS.Clock).now());
  }
  const sandbox = gateway instanceof SandboxBillingGateway;
  c.bind(TOKENS.BillingGateway).toConstantValue(gateway);
  const topUps = new TypeormTopUpRepository(database);
  const recharges = new TypeormAutoRechargeRepository(database);
  const profiles = new TypeormBillingProfileRepository(database);
  const inbox = new TypeormBillingInbox(database);
  c.bind(TOKENS.TopUpRepository).toConstantValue(topUps);
  c.bind(TOKENS.BillingInbox).toConstantValue(inbox);
  c.bind(TOKENS.TopUpQueries).toConstantValue(new TopUpQueries(topUps));

  const accounts = () => new BillingAccounts(get(TOKENS.UserRepository), profiles, gateway);
  c.bind(TOKENS.SettleTopUp)
    .toDynamicValue(
      () =>
        new SettleTopUp({
          uow: get(TOKENS.UnitOfWork),
          topUps,
          ledger: get(TOKENS.LedgerRepository),
          recharges,
          profiles,
          outbox: get(TOKENS.Outbox),
          gateway,
          clock: get(TOKENS.Clock),
        }),
    )
    .inSingletonScope();
  c.bind(TOKENS.SandboxCheckout)
    .toDynamicValue(() => new SandboxCheckout(topUps, get(TOKENS.SettleTopUp)))
    .inSingletonScope();
  c.bind(TOKENS.StartTopUp)
    .toDynamicValue(
      () =>
        new StartTopUp({
          uow: get(TOKENS.UnitOfWork),
          topUps,
          profiles,
          accounts: accounts(),
          gateway,
          clock: get(TOKENS.Clock),
          log,
        }),
    )
    .inSingletonScope();
  c.bind(TOKENS.AutoRechargeSettings)
    .toDynamicValue(
      () => new AutoRechargeSettingsService(get(TOKENS.UnitOfWork), recharges, accounts(), gateway, get(TOKENS.Clock)),
    )
    .inSingletonScope();
  c.bind(TOKENS.ReceiveBillingEvent)
    .toDynamicValue(
      () => new ReceiveBillingEvent(get(TOKENS.UnitOfWork), sources, inbox, get(TOKENS.Outbox), get(TOKENS.Clock)),
    )
    .inSingletonScope();
  // Every charge of BalanceService runs this in its transaction (see foundation).
  c.bind(TOKENS.ChargeFollowUp)
    .toDynamicValue(() => new AutoRechargeTrigger(recharges, get(TOKENS.Outbox), get(TOKENS.Clock)))
    .inSingletonScope();

  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() =>
      autoRechargeStartConsumer(
        get(TOKENS.UnitOfWork),
        get(TOKENS.ProcessedEvents),
        new StartAutoRecharge(
          get(TOKENS.UserRepository),
          recharges,
          topUps,
          get(TOKENS.Outbox),
          gateway,
          get(TOKENS.Clock),
        ),
      ),
    )
    .inSingletonScope();
  const chargeAuto = () =>
    new ChargeAutoTopUp({
      topUps,
      accounts: accounts(),
      gateway,
      settle: get(TOKENS.SettleTopUp),
      jobs: get(TOKENS.JobScheduler),
      clock: get(TOKENS.Clock),
      log,
    });
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() => autoRechargeChargeConsumer(chargeAuto()))
    .inSingletonScope();
  c.bind(TOKENS.JobHandler)
    .toDynamicValue(() => autoRechargeChargeRetries(chargeAuto()))
    .inSingletonScope();
  c.bind(TOKENS.EventConsumer)
    .toDynamicValue(() =>
      billingEventConsumer(new ProcessBillingEvent(sources, inbox, get(TOKENS.SettleTopUp), get(TOKENS.Clock))),
    )
    .inSingletonScope();

  SandboxFaults.in(c).register(
    'billing_charge',
    sandbox
      ? async ({ userId, targetId, count }) => {
          // The fault is account-wide: there is no resource of the caller it could be aimed at.
          if (targetId !== null) return 'not_found';
          return { remaining: await faults.arm(userId, count) };
        }
      : null,
  );

  // Processed provider events are kept long enough to answer a dispute about a payment, then go in batches.
  const retention = everyInterval(
    'billing-event-retention',
    HOUR_MS,
    async () => {
      const cutoff = new Date(get(TOKENS.Clock).now().getTime() - BILLING_EVENT_RETENTION_DAYS * DAY_MS);
      while ((await inbox.purgeProcessedBefore(cutoff, 1_000)) === 1_000);
    },
    log,
  );

  // Top-ups whose provider answer or event was lost are settled by what the provider says of the payment.
  const reconciliation = everyInterval(
    'top-up-reconciliation',
    RECONCILE_INTERVAL_MS,
    () => new ReconcileTopUps(topUps, gateway, get(TOKENS.SettleTopUp), get(TOKENS.Clock), log).sweep(),
    log,
  );

  const controllers = [
    TopUpController,
    AutoRechargeController,
    BillingIngressController,
    AdminTopUpController,
    ...(sandbox ? [SandboxBillingController, SandboxCheckoutController] : []),
  ];
  for (const controller of controllers) c.bind(controller).toSelf().inSingletonScope();
  return {
    background: [retention, reconciliation],
  };
};
