import { err, FieldProblems, newSipTrunkSettings, NewSipTrunk, ok, Result, SipTrunkProblem } from '@voiceplane/domain';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { OperationsLog, SipProvisioner } from './ports';
import { inboundSpec, outboundSpec, ProvisioningAttempt } from './provisioning-attempt';
import { ProvisioningCleanup } from './provisioning-cleanup';
import { SipTrunkRepository, StoredSipTrunk } from './repositories';
import { SecretCipher } from '../common';
import { failureText } from './failure-text';

export type SipTrunkWriteError =
  | { readonly code: 'not_found' }
  /** The transport refused the shape of a sent field (update only; reported after the 404). */
  | { readonly code: 'malformed' }
  | { readonly code: 'invalid'; readonly problems: FieldProblems<SipTrunkProblem> }
  | { readonly code: 'duplicate' }
  | { readonly code: 'provisioning_failed' };

/** Marks a duplicate found inside the final transaction (a concurrent request won the race). */
class DuplicateOnCommit extends Error {}

export interface SipTrunkWriteDeps {
  readonly uow: UnitOfWork;
  readonly trunks: SipTrunkRepository;
  readonly provisioner: SipProvisioner;
  readonly cleanup: ProvisioningCleanup;
  readonly cipher: SecretCipher;
  readonly clock: Clock;
  readonly log: OperationsLog;
}

/**
 * The provider trunks and their inbound route are made first; the trunk is stored
 * only when all of them exist. Any failure deletes what was made — nothing is stored.
 */
export class CreateSipTrunk {
  constructor(private readonly d: SipTrunkWriteDeps) {}

  async execute(userId: number, input: NewSipTrunk): Promise<Result<StoredSipTrunk, SipTrunkWriteError>> {
    const settled = newSipTrunkSettings(input);
    if (!settled.ok) return err({ code: 'invalid', problems: settled.error });
    const settings = settled.value;
    if (await this.d.trunks.hasDuplicate(userId, settings, null)) return err({ code: 'duplicate' });

    const id = await this.d.trunks.reserveId();
    const owner = { accountId: userId, phoneNumberId: id };
    const attempt = new ProvisioningAttempt(this.d.provisioner, this.d.cleanup);
    try {
      const sipPasswordCipher = await this.d.cipher.encrypt(settings.sipPassword);
      const inboundTrunkId = await attempt.createInboundTrunk(inboundSpec(owner, settings));
      const outboundTrunkId = await attempt.createOutboundTrunk(outboundSpec(owner, settings));
      const inboundRouteId = await attempt.routeInboundCalls(owner, settings.phoneNumber, inboundTrunkId);
      const now = this.d.clock.now();
      const { sipPassword: _plain, ...visible } = settings;
      const stored = await this.d.uow.transaction(
        async () => {
          await this.d.trunks.lockAccount(userId);
          if (await this.d.trunks.hasDuplicate(userId, settings, null)) throw new DuplicateOnCommit();
          return this.d.trunks.insert({
            ...visible,
            id,
            userId,
            sipPasswordCipher,
            inboundTrunkId,
            outboundTrunkId,
            inboundRouteId,
            createdAt: now,
            updatedAt: now,
          });
        },
        { concludes: (trunk) => ok(trunk) },
      );
      return ok(stored);
    } catch (e) {
      await attempt
        .undo()
        .catch((undoError) =>
          this.d.log.error({ phoneNumberId: id, error: failureText(undoError) }, 'SIP trunk create: undo failed'),
        );
      if (e instanceof DuplicateOnCommit) return err({ code: 'duplicate' });
      this.d.log.error(
        { userId, phoneNumberId: id, error: failureText(e) },
        'SIP trunk create failed; provider changes undone',
      );
      return err({ code: 'provisioning_failed' });
    }
  }
}
