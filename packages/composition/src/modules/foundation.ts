import {
  Authenticator, BalanceService, type ChargeFollowUp, CreateAccount, CryptoIds, Login, RateLimiter, SecretCipher, TOKENS,
} from '@voiceplane/application';
import {
  AccountController, accountRouteDocs, AdminController, adminRouteDocs, ApiKeyController, apiKeyRouteDocs, BillingController, billingRouteDocs,
} from '@voiceplane/adapter-http';
import {
  PostgresIdempotencyStore, PostgresRateLimitStore, TypeormCredentialRepository, TypeormLedgerRepository, TypeormOutbox,
  TypeormSettingsRepository, TypeormSigningSecretRepository, TypeormUserRepository,
} from '@voiceplane/adapter-typeorm';
import { GuardedHttpClient } from '@voiceplane/adapter-outbound-http';
import type { TargetUrlPolicy } from '@voiceplane/domain';
import { VERSION } from '../version';
import { ApiModule } from './module';

const systemClock = { now: () => new Date() };

/** Accounts, credentials, balance and the cross-instance counters (issue: Foundation). */
export const foundationModule: ApiModule = ({ container, config, database, logger }) => {
  const c = container;
  c.bind(TOKENS.Clock).toConstantValue(systemClock);
  const ids = new CryptoIds();
  c.bind(TOKENS.Ids).toConstantValue(ids);
  c.bind(TOKENS.Outbox).toConstantValue(new TypeormOutbox(database, ids, systemClock));
  // One guarded client and one target policy for every request sent to a user-given address.
  c.bind(TOKENS.TargetUrlPolicy).toConstantValue({ requireHttps: config.requireHttpsTargets, allowPrivate: config.allowPrivateTargets } satisfies TargetUrlPolicy);
  c.bind(TOKENS.OutboundHttpClient).toConstantValue(new GuardedHttpClient({
    userAgent: `voiceplane/${VERSION}`,
    allowPrivateTargets: config.allowPrivateTargets,
    requireHttps: config.requireHttpsTargets,
    logger: logger.child({ component: 'outbound-http' }),
  }));
  c.bind(TOKENS.UnitOfWork).toConstantValue(database);
  c.bind(TOKENS.UserRepository).toConstantValue(new TypeormUserRepository(database));
  c.bind(TOKENS.LedgerRepository).toConstantValue(new TypeormLedgerRepository(database));
  c.bind(TOKENS.CredentialRepository).toConstantValue(new TypeormCredentialRepository(database));
  c.bind(TOKENS.SigningSecretRepository).toConstantValue(new TypeormSigningSecretRepository(database));
  const settings = new TypeormSettingsRepository(database);
  c.bind(TOKENS.SettingsRepository).toConstantValue(settings);
  // Secrets kept for later use (SIP passwords, idempotent answers that carry a token) are sealed
  // under SECRETS_KEY, or under a key generated on first use and kept.
  c.bind(SecretCipher).toConstantValue(new SecretCipher(async () => {
    if (config.secretsKey) return config.secretsKey;
    return (await settings.getOrCreate('secrets_key', ids.secretBytes(32))).value;
  }));
  const rateStore = new PostgresRateLimitStore(database);
  c.bind(PostgresRateLimitStore).toConstantValue(rateStore);
  c.bind(PostgresIdempotencyStore).toConstantValue(new PostgresIdempotencyStore(database));
  c.bind(TOKENS.RateLimiter).toConstantValue(new RateLimiter(rateStore, systemClock));
  c.bind(TOKENS.Authenticator).toDynamicValue((ctx) => new Authenticator(ctx.get(TOKENS.CredentialRepository), ctx.get(TOKENS.Clock))).inSingletonScope();
  c.bind(TOKENS.CreateAccount).toDynamicValue((ctx) => new CreateAccount(
    ctx.get(TOKENS.UnitOfWork), ctx.get(TOKENS.UserRepository), ctx.get(TOKENS.CredentialRepository),
    ctx.get(TOKENS.SigningSecretRepository), ctx.get(TOKENS.LedgerRepository), ctx.get(TOKENS.Ids),
  )).inSingletonScope();
  c.bind(TOKENS.Login).toDynamicValue((ctx) => new Login(
    ctx.get(TOKENS.UserRepository), ctx.get(TOKENS.CredentialRepository), ctx.get(TOKENS.Ids), ctx.get(TOKENS.Clock), config.sessionTtlHours,
  )).inSingletonScope();
  // A capability composed later may bind what follows every charge (auto-recharge), and a module
  // may take BalanceService before that: the follow-up is looked up at the first charge.
  let followUp: ChargeFollowUp | null | undefined;
  const lateFollowUp: ChargeFollowUp = {
    async afterCharge(entry, balanceBefore) {
      followUp ??= c.isBound(TOKENS.ChargeFollowUp) ? c.get(TOKENS.ChargeFollowUp) : null;
      await followUp?.afterCharge(entry, balanceBefore);
    },
  };
  c.bind(TOKENS.BalanceService).toDynamicValue((ctx) => new BalanceService(
    ctx.get(TOKENS.LedgerRepository), lateFollowUp,
  )).inSingletonScope();
  for (const controller of [AccountController, ApiKeyController, AdminController, BillingController]) c.bind(controller).toSelf().inSingletonScope();

  return {
    routeDocs: [...accountRouteDocs, ...apiKeyRouteDocs, ...adminRouteDocs, ...billingRouteDocs],
    background: [
      {
        // Expired rate-limit windows and idempotency keys are garbage; sweep them every minute.
        name: 'counter-sweeper',
        timer: null as NodeJS.Timeout | null,
        async start() {
          this.timer = setInterval(() => {
            const now = new Date();
            void rateStore.purgeExpired(now).catch((e) => logger.warn({ err: e }, 'rate-limit sweep failed'));
            void database.query('DELETE FROM idempotency_keys WHERE expires_at < $1', [now]).catch((e) => logger.warn({ err: e }, 'idempotency sweep failed'));
          }, 60_000);
          this.timer.unref();
        },
        async stop() {
          if (this.timer) clearInterval(this.timer);
        },
      } as { name: string; timer: NodeJS.Timeout | null; start(): Promise<void>; stop(): Promise<void> },
    ],
  };
};
