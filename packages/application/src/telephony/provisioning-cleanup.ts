import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { OperationsLog, SipProvisioner } from './ports';
import { CleanupTask, NewCleanupTask, ProvisioningCleanupQueue } from './repositories';
import { failureText } from './failure-text';

/** How long a claimed task belongs to whoever claimed it before the job may take it over. */
export const CLEANUP_LEASE_MS = 5 * 60_000;
/** An old trunk with live calls is checked again every 60 s, for at most 24 h. */
export const ACTIVE_CALL_RECHECK_MS = 60_000;
export const ACTIVE_CALL_MAX_WAIT_MS = 24 * 60 * 60_000;
const MAX_RETRY_DELAY_MS = 60 * 60_000;

/** 1 min, 2, 4, … capped at an hour. */
export const cleanupRetryDelayMs = (attempts: number): number =>
  Math.min(60_000 * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);

/** Finishes a phone-number delete whose request died after storing its intent (`DeletePhoneNumber.finish`). */
export interface NumberDeleteFinisher {
  finish(task: CleanupTask): Promise<void>;
}

/**
 * Finishes provider work that must not be lost: old trunks retired after a swap (step 4 of
 * make-before-break) and whatever an undo could not remove at once. Tasks are stored before they
 * are tried, so a crash in between only delays them until the lease runs out.
 */
export class ProvisioningCleanup {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly provisioner: SipProvisioner,
    private readonly queue: ProvisioningCleanupQueue,
    private readonly clock: Clock,
    private readonly log: OperationsLog,
    /** Late-bound: the delete use case itself depends on this queue. */
    private readonly numberDeletes: () => NumberDeleteFinisher | null = () => null,
  ) {}

  /** Stores tasks leased to the caller, who tries them right after its transaction commits. */
  lease(tasks: readonly NewCleanupTask[]): Promise<CleanupTask[]> {
    const now = this.clock.now();
    return this.queue.add(tasks, new Date(now.getTime() + CLEANUP_LEASE_MS), now);
  }

  /** Stores a delete intent leased to the caller; null when the number's delete is under way already. */
  leaseDeleteIntent(resourceId: string): Promise<CleanupTask | null> {
    const now = this.clock.now();
    return this.queue.addDeleteIntent(resourceId, new Date(now.getTime() + CLEANUP_LEASE_MS), now);
  }

  /** Drops a task that is done or no longer wanted (a delete intent the provider refused). */
  forget(id: number): Promise<void> {
    return this.queue.complete(id);
  }

  /** Stores tasks for the job alone, first tried after one retry delay. */
  async defer(tasks: readonly NewCleanupTask[]): Promise<void> {
    const now = this.clock.now();
    await this.queue.add(tasks, new Date(now.getTime() + cleanupRetryDelayMs(1)), now);
  }

  /** Tries each task once; failures are logged and rescheduled, never thrown. */
  async run(tasks: readonly CleanupTask[]): Promise<void> {
    for (const task of tasks) await this.attempt(task);
  }

  /** The background job: every due task, oldest first. Returns how many were tried. */
  async runDue(limit = 50): Promise<number> {
    const now = this.clock.now();
    const tasks = await this.queue.claimDue(now, new Date(now.getTime() + CLEANUP_LEASE_MS), limit);
    await this.run(tasks);
    return tasks.length;
  }

  private async attempt(task: CleanupTask): Promise<void> {
    const now = this.clock.now();
    try {
      if (task.action === 'delete_number') {
        const finisher = this.numberDeletes();
        if (!finisher) throw new Error('no phone-number delete is wired to finish this task');
        // Closes the task itself, in the transaction that deletes the number.
        await finisher.finish(task);
        return;
      }
      if (task.action === 'delete_trunk') {
        const waited = now.getTime() - task.createdAt.getTime();
        if (
          task.waitForCalls &&
          waited < ACTIVE_CALL_MAX_WAIT_MS &&
          (await this.provisioner.trunkHasActiveCalls(task.resourceId))
        ) {
          await this.queue.retryAt(
            task.id,
            new Date(now.getTime() + ACTIVE_CALL_RECHECK_MS),
            'The trunk still carries calls.',
          );
          return;
        }
        await this.provisioner.deleteTrunk(task.resourceId);
      } else if (task.action === 'delete_route') {
        await this.provisioner.deleteInboundRoute(task.resourceId);
      } else {
        await this.provisioner.pointInboundRoute(task.resourceId, task.targetTrunkId as string);
      }
    } catch (e) {
      const error = failureText(e);
      this.log.warn(
        {
          cleanupTaskId: task.id,
          action: task.action,
          resourceId: task.resourceId,
          attempts: task.attempts + 1,
          error,
        },
        'SIP provisioning clean-up failed; it will be retried',
      );
      await this.queue.retryAt(task.id, new Date(now.getTime() + cleanupRetryDelayMs(task.attempts + 1)), error);
      return;
    }
    // The trunks a route held can go now; their own tasks replace this one atomically.
    const released = await this.uow.transaction(async () => {
      await this.queue.complete(task.id);
      return task.releaseTrunkIds.length > 0
        ? this.lease(task.releaseTrunkIds.map((id) => ({ action: 'delete_trunk' as const, resourceId: id })))
        : [];
    });
    await this.run(released);
  }
}
