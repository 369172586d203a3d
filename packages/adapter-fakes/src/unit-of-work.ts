import { UnitOfWork } from '@voiceplane/application';

/**
 * Runs the work as it is: the in-memory fakes have nothing to commit. Nothing is rolled back
 * when the work throws, so a test about rollback belongs on the integration lane.
 */
export class PassThroughUnitOfWork implements UnitOfWork {
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
