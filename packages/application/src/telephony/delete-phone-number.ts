import { err, ok, Result } from '@voiceplane/domain';
import { UnitOfWork } from '../ports/unit-of-work';
import { NumberInventory, OperationsLog, SipProvisioner } from './ports';
import { ProvisioningCleanup } from './provisioning-cleanup';
import { CleanupTask, PhoneNumberRepository, SipTrunkRepository } from './repositories';
import { failureText } from './failure-text';

export type DeletePhoneNumberError = 'not_found' | 'failed';

/**
 * A purchased number is released, a SIP number loses its inbound route and both
 * provider trunks; then the number is unassigned from the account's assistants.
 *
 * The first provider call runs inside the database transaction that deletes the number, so if the
 * provider refuses, the row stays and nothing changed (500). Trunk deletion follows the commit and
 * is finished by the clean-up job if the provider stumbles there.
 */
export class DeletePhoneNumber {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly numbers: PhoneNumberRepository,
    private readonly trunks: SipTrunkRepository,
    private readonly provisioner: SipProvisioner,
    private readonly inventory: NumberInventory,
    private readonly cleanup: ProvisioningCleanup,
    private readonly log: OperationsLog,
  ) {}

  async execute(userId: number, id: number): Promise<Result<void, DeletePhoneNumberError>> {
    const number = await this.numbers.find(userId, id);
    if (!number) return err('not_found');
    const trunk = number.type === 'sip' ? await this.trunks.find(userId, id) : null;
    let retiring: CleanupTask[] = [];
    try {
      const deleted = await this.uow.transaction(async () => {
        if (!(await this.numbers.delete(userId, id))) return false;
        if (trunk) {
          await this.provisioner.deleteInboundRoute(trunk.inboundRouteId);
          retiring = await this.cleanup.lease([trunk.inboundTrunkId, trunk.outboundTrunkId].map((t) => ({ action: 'delete_trunk' as const, resourceId: t })));
        } else if (number.type === 'purchased') {
          await this.inventory.release(number.phoneNumber, number.providerReference, { accountId: userId, phoneNumberId: id });
        }
        return true;
      });
      if (!deleted) return err('not_found');
    } catch (e) {
      this.log.error({ userId, phoneNumberId: id, error: failureText(e) }, 'Phone number delete failed; nothing changed');
      return err('failed');
    }
    await this.cleanup.run(retiring);
    return ok(undefined);
  }
}
