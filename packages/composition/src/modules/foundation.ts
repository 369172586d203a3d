import {
  AdministerAccounts,
  Authenticator,
  BalanceService,
  BillingQueries,
  type ChargeFollowUp,
  CreateAccount,
  CryptoIds,
  CurrentAccount,
  Login,
  ManageApiKeys,
  PrincipalCache,
  RateLimiter,
  SecretCipher,
  TOKENS,
} from '@voiceplane/application';
import { AccountController, AdminController, ApiKeyController, BillingController } from '@voiceplane/adapter-http';
import {
  Database,
  OutboxNotifier,
  PostgresIdempotencyStore,
  PostgresNotifications,
  PostgresRateLimitStore,
  PRINCIPALS_CHANNEL,
  TypeormCredentialRepository,
  TypeormLedgerRepository,
  TypeormOutbox,
  TypeormSettingsRepository,
  TypeormSigningSecretRepository,
  TypeormUserRepository,
} from '@voiceplane/adapter-typeorm';
import type { Logger } from 'pino';
import { GuardedHttpClient } from '@voiceplane/adapter-outbound-http';
import type { TargetUrlPolicy } from '@voiceplane/domain';
import { VERSION } from '../version';
import { ApiModule, BackgroundTask } from './module';
import { safetyPollMs } from './every-interval';

const systemClock = { now: () => new Date() };

/** Accounts, credentials, balance and the cross-instance counters (issue: Foundation). */
export const foundationModule: ApiModule = ({ container, config, database, logger }) => {
  const c = container;
  c.bind(TOKENS.Clock).toConstantValue(systemClock);
  const ids = new CryptoIds();
  c.bind(TOKENS.Ids).toConstantValue(ids);
  // Every writer wakes the relays after its commit; where notifications do not arrive they poll.
  const outboxNotifier = new OutboxNotifier(database, logger.child({ component: 'outbox' }));
  c.bind(OutboxNotifier).toConstantValue(outboxNotifier);
  const outbox = new TypeormOutbox(database, ids, systemClock, outboxNotifier);
  c.bind(TOKENS.Outbox).toConstantValue(outbox);
  // Repositories that write their row and its events in one statement need the adapter itself.
  c.bind(TypeormOutbox).toConstantValue(outbox);
  // One guarded client and one target policy for every request sent to a user-given address.
  c.bind(TOKENS.TargetUrlPolicy).toConstantValue({
    requireHttps: config.requireHttpsTargets,
    allowPrivate: config.allowPrivateTargets,
  } satisfies TargetUrlPolicy);
  c.bind(TOKENS.OutboundHttpClient).toConstantValue(
    new GuardedHttpClient({
      userAgent: `voiceplane/${VERSION}`,
      allowPrivateTargets: config.allowPrivateTargets,
      requireHttps: config.requireHttpsTargets,
      logger: logger.child({ component: 'outbound-http' }),
    }),
  );
  c.bind(TOKENS.UnitOfWork).toConstantValue(database);
  c.bind(TOKENS.UserRepository).toConstantValue(new TypeormUserRepository(database));
  c.bind(TOKENS.LedgerRepository).toConstantValue(new TypeormLedgerRepository(database));
  c.bind(TOKENS.CredentialRepository).toConstantValue(new TypeormCredentialRepository(database));
  c.bind(TOKENS.SigningSecretRepository).toConstantValue(new TypeormSigningSecretRepository(database));
  const settings = new TypeormSettingsRepository(database);
  c.bind(TOKENS.SettingsRepository).toConstantValue(settings);
  // Secrets kept for later use (SIP passwords, idempotent answers that carry a token) are sealed
  // under SECRETS_KEY, or under a key generated on first use and kept.
  c.bind(SecretCipher).toConstantValue(
    new SecretCipher(async () => {
      if (config.secretsKey) return config.secretsKey;
      return (await settings.getOrCreate('secrets_key', ids.secretBytes(32))).value;
    }),
  );
  const rateStore = new PostgresRateLimitStore(database);
  c.bind(PostgresRateLimitStore).toConstantValue(rateStore);
  c.bind(PostgresIdempotencyStore).toConstantValue(new PostgresIdempotencyStore(database));
  const rateLimiter = new RateLimiter(rateStore, systemClock);
  c.bind(TOKENS.RateLimiter).toConstantValue(rateLimiter);
  const principals = principalChanges(database, logger);
  c.bind(TOKENS.Authenticator)
    .toDynamicValue(
      (ctx) => new Authenticator(ctx.get(TOKENS.CredentialRepository), ctx.get(TOKENS.Clock), principals.cache),
    )
    .inSingletonScope();
  c.bind(TOKENS.AdministerAccounts)
    .toDynamicValue(() => new AdministerAccounts(c.get(TOKENS.UserRepository)))
    .inSingletonScope();
  c.bind(TOKENS.CreateAccount)
    .toDynamicValue(
      (ctx) =>
        new CreateAccount(
          ctx.get(TOKENS.UnitOfWork),
          ctx.get(TOKENS.UserRepository),
          ctx.get(TOKENS.CredentialRepository),
          ctx.get(TOKENS.SigningSecretRepository),
          ctx.get(TOKENS.LedgerRepository),
          ctx.get(TOKENS.Ids),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.Login)
    .toDynamicValue(
      (ctx) =>
        new Login(
          ctx.get(TOKENS.UserRepository),
          ctx.get(TOKENS.CredentialRepository),
          ctx.get(TOKENS.Ids),
          ctx.get(TOKENS.Clock),
          config.sessionTtlHours,
          ctx.get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.CurrentAccount)
    .toDynamicValue(
      (ctx) =>
        new CurrentAccount(
          ctx.get(TOKENS.UserRepository),
          ctx.get(TOKENS.CredentialRepository),
          ctx.get(TOKENS.Clock),
          ctx.get(TOKENS.UnitOfWork),
        ),
    )
    .inSingletonScope();
  c.bind(TOKENS.ManageApiKeys)
    .toDynamicValue(
      (ctx) => new ManageApiKeys(ctx.get(TOKENS.CredentialRepository), ctx.get(TOKENS.Ids), ctx.get(TOKENS.UnitOfWork)),
    )
    .inSingletonScope();
  // A capability composed later may bind what follows every charge (auto-recharge), and a module
  // may take BalanceService before that: the follow-up is looked up at the first charge.
  let followUp: ChargeFollowUp | null | undefined;
  const lateFollowUp: ChargeFollowUp = {
    async afterCharge(entry, balanceBefore) {
      followUp ??= c.isBound(TOKENS.ChargeFollowUp) ? c.get(TOKENS.ChargeFollowUp) : null;
      await followUp?.afterCharge(entry, balanceBefore);
    },
  };
  c.bind(TOKENS.BalanceService)
    .toDynamicValue((ctx) => new BalanceService(ctx.get(TOKENS.LedgerRepository), lateFollowUp))
    .inSingletonScope();
  // The template allowance is counted by the chat-app messages, bound by a capability composed later.
  c.bind(TOKENS.BillingQueries)
    .toDynamicValue(
      (ctx) =>
        new BillingQueries(
          ctx.get(TOKENS.UserRepository),
          ctx.get(TOKENS.LedgerRepository),
          ctx.get(TOKENS.ChatappMessageRepository),
          ctx.get(TOKENS.Clock),
          { calls: ctx.get(TOKENS.CallRepository), prices: config.callMinutePrices },
        ),
    )
    .inSingletonScope();
  for (const controller of [AccountController, ApiKeyController, AdminController, BillingController])
    c.bind(controller).toSelf().inSingletonScope();

  return {
    serving: [principals.task, quotaReturns(rateLimiter, logger)],
    background: [
      {
        // Expired rate-limit windows and idempotency keys are garbage; sweep them every minute (embedded: see safetyPollMs).
        name: 'counter-sweeper',
        timer: null as NodeJS.Timeout | null,
        async start() {
          this.timer = setInterval(
            () => {
              const now = new Date();
              void rateStore.purgeExpired(now).catch((e) => logger.warn({ err: e }, 'rate-limit sweep failed'));
              void database
                .query('DELETE FROM idempotency_keys WHERE expires_at < $1', [now])
                .catch((e) => logger.warn({ err: e }, 'idempotency sweep failed'));
            },
            safetyPollMs(config, 60_000),
          );
          this.timer.unref();
        },
        async stop() {
          if (this.timer) clearInterval(this.timer);
        },
      } as { name: string; timer: NodeJS.Timeout | null; start(): Promise<void>; stop(): Promise<void> },
    ],
  };
};

/**
 * The principal cache and the LISTEN connection that keeps it honest: the database's principal
 * triggers name the user whose credentials changed, and every instance forgets that user's
 * principals. A cached principal is served only after a round trip on the LISTEN connection has
 * brought in every notification committed before the request arrived, so a revocation committed on
 * any instance is refused on every other one from the next request on. Where notifications do not
 * arrive (embedded PGlite, or while reconnecting) the cache stays out of the way and every request
 * reads its principal.
 */
function principalChanges(database: Database, logger: Logger): { cache: PrincipalCache; task: BackgroundTask } {
  const log = logger.child({ component: 'principal-cache' });
  let notifications: PostgresNotifications | undefined;
  const live = () => notifications?.delivering ?? false;
  const cache = new PrincipalCache(live, () =>
    notifications ? notifications.caughtUp() : Promise.reject(new Error('not listening')),
  );
  // The payload names the user; a ring without one (the connection was lost) may hide anything.
  const changed = { ring: (userId?: string) => (userId ? cache.forgetUser(Number(userId)) : cache.forgetAll()) };
  return {
    cache,
    task: {
      name: 'principal-cache',
      async start() {
        const listener = new PostgresNotifications(database, { [PRINCIPALS_CHANNEL]: changed }, log);
        if (await listener.start()) {
          notifications = listener;
          return;
        }
        log.info(
          'database notifications do not reach this process (embedded PostgreSQL); principals are read on every request',
        );
        await listener.stop();
      },
      async stop() {
        await notifications?.stop();
        notifications = undefined;
        cache.forgetAll();
      },
    },
  };
}

/**
 * Leased rate-limit quota an instance stops using goes back to the shared counters. The look runs
 * every second only while leases are held: an instance without requests holds none, and sleeps.
 */
function quotaReturns(limiter: RateLimiter, logger: Logger): BackgroundTask {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  const giveBack = (all = false) =>
    limiter.returnIdle(all).catch((e) => logger.warn({ err: e }, 'returning leased rate-limit quota failed'));
  const look = async () => {
    await giveBack();
    if (!limiter.holdsLeases) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  const watch = () => {
    if (stopped || timer) return;
    timer = setInterval(() => void look(), 1_000);
    timer.unref();
  };
  return {
    name: 'rate-limit-quota-returns',
    async start() {
      stopped = false;
      limiter.whenLeasing(watch);
      watch();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await giveBack(true);
    },
  };
}
