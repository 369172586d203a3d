import { err, ok, Result } from '@voiceplane/domain';
import { UnitOfWork } from '../ports';
import { NumberInventory, OperationsLog, SipProvisioner } from './ports';
import { ProvisioningCleanup } from './provisioning-cleanup';
import { CleanupTask, PhoneNumber, PhoneNumberRepository, SipTrunkRepository, StoredSipTrunk } from './repositories';
import { failureText } from './failure-text';

export type DeletePhoneNumberError = 'not_found' | 'failed';

export interface DeletePhoneNumberDeps {
  readonly uow: UnitOfWork;
  readonly numbers: PhoneNumberRepository;
  readonly trunks: SipTrunkRepository;
  readonly provisioner: SipProvisioner;
  readonly inventory: NumberInventory;
  readonly cleanup: ProvisioningCleanup;
  readonly log: OperationsLog;
}

/**
 * A purchased number is released, a SIP number loses its inbound route and both
 * provider trunks; then the number is unassigned from the account's assistants.
 *
 * No transaction is open while the provider answers:
 * 1. the intent is stored as a `delete_number` clean-up task leased to this request — one per number,
 *    so of two deletes at once only the first calls the provider and the other answers not found;
 * 2. the provider releases the number or deletes the route — if it refuses, the task is dropped,
 *    the row stays and nothing changed (500);
 * 3. one short transaction deletes the row, closes the task and leases the trunks' deletion, which
 *    is tried after the commit and finished by the clean-up job if the provider stumbles there.
 * A process that dies between 1 and 3 leaves the task; when its lease runs out the clean-up job
 * calls `finish`, which repeats 2 and 3 (a number already gone only closes the task).
 */
export class DeletePhoneNumber {
  constructor(private readonly d: DeletePhoneNumberDeps) {}

  async execute(userId: number, id: number): Promise<Result<void, DeletePhoneNumberError>> {
    const number = await this.d.numbers.find(userId, id);
    if (!number) return err('not_found');
    const trunk = number.type === 'sip' ? await this.d.trunks.find(userId, id) : null;
    const intent = await this.d.cleanup.leaseDeleteIntent(`${userId}:${id}`);
    // Another request is deleting this number: only one may call the provider, and its outcome is this one's.
    if (!intent) return err('not_found');
    try {
      await this.releaseAtProvider(userId, number, trunk);
    } catch (e) {
      await this.d.cleanup.forget(intent.id);
      this.d.log.error(
        { userId, phoneNumberId: id, error: failureText(e) },
        'Phone number delete failed; nothing changed',
      );
      return err('failed');
    }
    return (await this.settle(intent, userId, id, trunk)) ? ok(undefined) : err('not_found');
  }

  /** The clean-up job's way to finish a `delete_number` task whose request did not; throws to be retried. */
  async finish(task: CleanupTask): Promise<void> {
    const [userId, id] = task.resourceId.split(':').map(Number);
    const number = await this.d.numbers.find(userId, id);
    if (!number) {
      await this.d.cleanup.forget(task.id);
      return;
    }
    const trunk = number.type === 'sip' ? await this.d.trunks.find(userId, id) : null;
    await this.releaseAtProvider(userId, number, trunk);
    await this.settle(task, userId, id, trunk);
  }

  private async releaseAtProvider(userId: number, number: PhoneNumber, trunk: StoredSipTrunk | null): Promise<void> {
    if (trunk) await this.d.provisioner.deleteInboundRoute(trunk.inboundRouteId);
    else if (number.type === 'purchased')
      await this.d.inventory.release(number.phoneNumber, number.providerReference, {
        accountId: userId,
        phoneNumberId: number.id,
      });
  }

  /** Deletes the row and closes the intent in one transaction; false when the row was gone already. */
  private async settle(
    intent: CleanupTask,
    userId: number,
    id: number,
    trunk: StoredSipTrunk | null,
  ): Promise<boolean> {
    let retiring: CleanupTask[] = [];
    const deleted = await this.d.uow.transaction(async () => {
      await this.d.cleanup.forget(intent.id);
      if (!(await this.d.numbers.delete(userId, id))) return false;
      if (trunk)
        retiring = await this.d.cleanup.lease(
          [trunk.inboundTrunkId, trunk.outboundTrunkId].map((t) => ({
            action: 'delete_trunk' as const,
            resourceId: t,
          })),
        );
      return true;
    });
    await this.d.cleanup.run(retiring);
    return deleted;
  }
}
