import { CleanupTask, NewCleanupTask, ProvisioningCleanupQueue } from '@voiceplane/application';
import { copy } from '../copy';

interface QueuedTask {
  task: CleanupTask;
  nextAttemptAt: Date;
  lastError: string | null;
}

/** The provider clean-up queue in memory: a claim moves the task's next attempt to the lease's end. */
export class InMemoryProvisioningCleanupQueue implements ProvisioningCleanupQueue {
  private readonly tasks = new Map<number, QueuedTask>();
  private sequence = 0;

  async add(tasks: readonly NewCleanupTask[], dueAt: Date, now: Date): Promise<CleanupTask[]> {
    return tasks.map((t) => {
      const task: CleanupTask = {
        id: ++this.sequence,
        action: t.action,
        resourceId: t.resourceId,
        targetTrunkId: t.targetTrunkId ?? null,
        releaseTrunkIds: [...(t.releaseTrunkIds ?? [])],
        waitForCalls: t.waitForCalls ?? false,
        attempts: 0,
        createdAt: new Date(now),
      };
      this.tasks.set(task.id, { task, nextAttemptAt: new Date(dueAt), lastError: null });
      return copy(task);
    });
  }

  async addDeleteIntent(resourceId: string, dueAt: Date, now: Date): Promise<CleanupTask | null> {
    if ([...this.tasks.values()].some((q) => q.task.action === 'delete_number' && q.task.resourceId === resourceId))
      return null;
    const [task] = await this.add([{ action: 'delete_number', resourceId }], dueAt, now);
    return task;
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<CleanupTask[]> {
    const due = this.ordered()
      .filter((q) => q.nextAttemptAt.getTime() <= now.getTime())
      .slice(0, limit);
    for (const q of due) q.nextAttemptAt = new Date(leaseUntil);
    return due.map((q) => copy(q.task));
  }

  async complete(id: number): Promise<void> {
    this.tasks.delete(id);
  }

  async retryAt(id: number, at: Date, error: string): Promise<void> {
    const q = this.tasks.get(id);
    if (q === undefined) return;
    q.task = { ...q.task, attempts: q.task.attempts + 1 };
    q.nextAttemptAt = new Date(at);
    q.lastError = error.slice(0, 500);
  }

  async pending(): Promise<CleanupTask[]> {
    return this.ordered().map((q) => copy(q.task));
  }

  private ordered(): QueuedTask[] {
    return [...this.tasks.values()].sort((a, b) => a.task.id - b.task.id);
  }
}
