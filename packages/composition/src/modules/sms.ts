import {
  SandboxSmsControls,
  SendSms,
  SmsMessages,
  SmsProvider,
  SmsSettlementSweep,
  TOKENS,
} from '@voiceplane/application';
import { SandboxFaults, SandboxSmsController, SmsController, SmsStatusController } from '@voiceplane/adapter-http';
import { SandboxSmsProvider, SMS_SEND_FAULT } from '@voiceplane/adapter-sandbox';
import { TwilioSmsProvider, TwilioSmsStatusGate } from '@voiceplane/adapter-twilio';
import { PostgresSandboxSmsState, TypeormSmsMessageRepository } from '@voiceplane/adapter-typeorm';
import { everyInterval } from './every-interval';
import { ApiModule } from './module';

/** SMS sends per account and minute, on every instance together (our choice; Famulor's page names none). */
export const SMS_SENDS_PER_MINUTE = 30;
/** How often stale pending sends are looked for (they are taken after five minutes). */
export const SMS_SWEEP_INTERVAL_MS = 60_000;

/**
 * SMS from the account's own numbers (`POST /api/user/sms`) and its log, through Twilio's Messages
 * API with SMS_PROVIDER=twilio (its signed status callbacks are served then), else the sandbox
 * provider with its fault kind `sms_send` and its controls.
 */
export const smsModule: ApiModule = ({ container: c, config, database, logger }) => {
  const get = c.get.bind(c);
  const messages = new TypeormSmsMessageRepository(database);
  c.bind(TOKENS.SmsMessageRepository).toConstantValue(messages);
  const clock = get(TOKENS.Clock);
  const log = new SmsMessages(messages, clock);
  c.bind(TOKENS.SmsMessages).toConstantValue(log);

  let provider: SmsProvider;
  const twilio = config.smsProvider === 'twilio' ? config.twilio : null;
  if (twilio) {
    const options = { ...twilio, publicBaseUrl: config.publicBaseUrl };
    provider = new TwilioSmsProvider(options);
    c.bind(TOKENS.SmsStatusGate).toConstantValue(new TwilioSmsStatusGate(options));
    c.bind(SmsStatusController).toSelf().inSingletonScope();
  } else {
    const state = new PostgresSandboxSmsState(database);
    provider = new SandboxSmsProvider(state, () => clock.now());
    c.bind(TOKENS.SandboxSmsControls).toConstantValue(new SandboxSmsControls(state, log));
    c.bind(SandboxSmsController).toSelf().inSingletonScope();
  }
  c.bind(TOKENS.SmsProvider).toConstantValue(provider);

  // A fault target must be one of the caller's own numbers.
  const numbers = get(TOKENS.PhoneNumberRepository);
  SandboxFaults.in(c).register(
    SMS_SEND_FAULT,
    provider instanceof SandboxSmsProvider
      ? async ({ userId, targetId, count }) =>
          targetId !== null && (await numbers.find(userId, targetId)) === null
            ? 'not_found'
            : { remaining: await provider.state.armFault({ kind: SMS_SEND_FAULT, userId, targetId, count }) }
      : null,
  );

  c.bind(TOKENS.SendSms)
    .toDynamicValue(
      () =>
        new SendSms(
          {
            uow: get(TOKENS.UnitOfWork),
            users: get(TOKENS.UserRepository),
            numbers,
            messages,
            chatappReservations: get(TOKENS.SendReservationRepository),
          },
          provider,
          get(TOKENS.BalanceService),
          config.smsPrices,
          clock,
        ),
    )
    .inSingletonScope();
  c.bind(SmsController).toSelf().inSingletonScope();
  c.bind(TOKENS.SmsSettlementSweep)
    .toDynamicValue(
      () => new SmsSettlementSweep(messages, provider, get(TOKENS.SendSms), clock, logger.child({ module: 'sms' })),
    )
    .inSingletonScope();

  return {
    background: [
      everyInterval(
        'sms-settlement-sweep',
        SMS_SWEEP_INTERVAL_MS,
        () => get(TOKENS.SmsSettlementSweep).sweep(),
        logger,
      ),
    ],
    routeQuotas: [
      {
        method: 'POST',
        routes: ['/api/user/sms'],
        buckets: (principal) => [
          { key: `sms-send:${principal.userId}`, limit: SMS_SENDS_PER_MINUTE, windowSeconds: 60 },
        ],
      },
    ],
  };
};
