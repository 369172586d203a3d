import {
  CreateSipTrunk,
  DeletePhoneNumber,
  NumberInventory,
  OperationsLog,
  PhoneNumberQueries,
  ProvisioningCleanup,
  PurchasePhoneNumber,
  RenewPhoneNumbers,
  SearchAvailableNumbers,
  SecretCipher,
  SipProvisioner,
  SipTrunkQueries,
  TOKENS,
  UpdateSipTrunk,
  RenamePhoneNumber,
} from '@voiceplane/application';
import {
  AssistantNumberController,
  PhoneNumberController,
  SandboxFaultController,
  SandboxFaults,
  SipTrunkController,
} from '@voiceplane/adapter-http';
import { SandboxNumberInventory, SandboxSipProvisioner } from '@voiceplane/adapter-sandbox';
import { LiveKitSipProvisioner } from '@voiceplane/adapter-livekit';
import { TwilioNumberInventory } from '@voiceplane/adapter-twilio';
import {
  TypeormPhoneNumberRepository,
  TypeormProvisioningCleanupQueue,
  TypeormSipTrunkRepository,
} from '@voiceplane/adapter-typeorm';
import type { Config } from '../config';
import { everyInterval, safetyPollMs } from './every-interval';
import { ApiModule } from './module';

/** How often the background work of this capability looks for due items. */
export const TELEPHONY_INTERVALS_MS = { cleanup: 60_000, renewals: 15 * 60_000 };

function sipProvisionerFor(config: Config): SipProvisioner {
  if (config.sipProvisioner === 'livekit' && config.livekit) {
    const { url, apiKey, apiSecret, sipEgressIp, agentName } = config.livekit;
    // Inbound rooms dispatch the voice agent only when LiveKit also holds the calls.
    return new LiveKitSipProvisioner({
      url,
      apiKey,
      apiSecret,
      sipEgressIp,
      agentName: config.voiceRuntime === 'livekit' ? agentName : null,
    });
  }
  return new SandboxSipProvisioner();
}

function numberInventoryFor(config: Config): NumberInventory {
  if (config.numberInventory === 'twilio' && config.twilio) return new TwilioNumberInventory(config.twilio);
  return new SandboxNumberInventory();
}

/**
 * SIP trunks, number search, owned numbers and purchases plus the sandbox fault kinds
 * `sip_provisioning` and `number_inventory`. Providers: the sandbox unless
 * SIP_PROVISIONER=livekit / NUMBER_INVENTORY=twilio.
 */
export const telephonyModule: ApiModule = ({ container: c, config, database, logger }) => {
  const log: OperationsLog = logger.child({ module: 'telephony' });
  const provisioner = sipProvisionerFor(config);
  const inventory = numberInventoryFor(config);
  c.bind(TOKENS.SipProvisioner).toConstantValue(provisioner);
  c.bind(TOKENS.NumberInventory).toConstantValue(inventory);
  const trunks = new TypeormSipTrunkRepository(database);
  const numbers = new TypeormPhoneNumberRepository(database);
  c.bind(TOKENS.SipTrunkRepository).toConstantValue(trunks);
  c.bind(TOKENS.PhoneNumberRepository).toConstantValue(numbers);
  c.bind(TOKENS.SipTrunkQueries).toConstantValue(new SipTrunkQueries(trunks));
  // The assistants are bound by a capability composed later.
  c.bind(TOKENS.PhoneNumberQueries)
    .toDynamicValue(() => new PhoneNumberQueries(numbers))
    .inSingletonScope();

  const cipher = c.get(SecretCipher);
  const clock = c.get(TOKENS.Clock);
  const uow = c.get(TOKENS.UnitOfWork);
  c.bind(TOKENS.RenamePhoneNumber).toConstantValue(new RenamePhoneNumber(numbers, clock));
  // The delete use case both stores its intent in the clean-up queue and finishes it for the job.
  let deleteNumber: DeletePhoneNumber | null = null;
  const cleanup = new ProvisioningCleanup(
    uow,
    provisioner,
    new TypeormProvisioningCleanupQueue(database),
    clock,
    log,
    () => deleteNumber,
  );
  c.bind(ProvisioningCleanup).toConstantValue(cleanup);

  const trunkWrites = { uow, trunks, provisioner, cleanup, cipher, clock, log };
  c.bind(TOKENS.CreateSipTrunk).toConstantValue(new CreateSipTrunk(trunkWrites));
  c.bind(TOKENS.UpdateSipTrunk).toConstantValue(new UpdateSipTrunk(trunkWrites));
  deleteNumber = new DeletePhoneNumber({ uow, numbers, trunks, provisioner, inventory, cleanup, log });
  c.bind(TOKENS.DeletePhoneNumber).toConstantValue(deleteNumber);
  c.bind(TOKENS.SearchAvailableNumbers).toConstantValue(new SearchAvailableNumbers(inventory, numbers, log));
  c.bind(TOKENS.PurchasePhoneNumber)
    .toDynamicValue(
      () =>
        new PurchasePhoneNumber({
          uow,
          numbers,
          users: c.get(TOKENS.UserRepository),
          balances: c.get(TOKENS.BalanceService),
          inventory,
          clock,
          log,
        }),
    )
    .inSingletonScope();
  const renewals = new RenewPhoneNumbers(uow, numbers, c.get(TOKENS.BalanceService), clock);
  c.bind(RenewPhoneNumbers).toConstantValue(renewals);

  // Sandbox fault kinds; a fault target must be one of the caller's own numbers.
  const faults = SandboxFaults.in(c);
  const ownNumber = async (userId: number, targetId: number | null, sipOnly: boolean) => {
    if (targetId === null) return true;
    return sipOnly ? (await trunks.find(userId, targetId)) !== null : (await numbers.find(userId, targetId)) !== null;
  };
  faults.register(
    'sip_provisioning',
    provisioner instanceof SandboxSipProvisioner
      ? async ({ userId, targetId, count }) =>
          (await ownNumber(userId, targetId, true))
            ? { remaining: provisioner.faults.arm({ accountId: userId, targetId, count }) }
            : 'not_found'
      : null,
  );
  faults.register(
    'number_inventory',
    inventory instanceof SandboxNumberInventory
      ? async ({ userId, targetId, count }) =>
          (await ownNumber(userId, targetId, false))
            ? { remaining: inventory.faults.arm({ accountId: userId, targetId, count }) }
            : 'not_found'
      : null,
  );

  for (const controller of [
    SipTrunkController,
    PhoneNumberController,
    AssistantNumberController,
    SandboxFaultController,
  ])
    c.bind(controller).toSelf().inSingletonScope();

  return {
    background: [
      everyInterval(
        'sip-provisioning-cleanup',
        safetyPollMs(config, TELEPHONY_INTERVALS_MS.cleanup),
        () => cleanup.runDue(),
        log,
      ),
      everyInterval('phone-number-renewals', TELEPHONY_INTERVALS_MS.renewals, () => renewals.runDue(), log),
    ],
  };
};
