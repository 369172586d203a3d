import { AutomationRun, Connection, err, ok, Result } from '@voiceplane/domain';
import { Clock } from '../ports';
import { AutomationEngine } from './automation-engine';
import { AutomationRunRepository, ConnectionRepository } from './ports';

/** What the sandbox may set a connection to. */
export type SandboxConnectionStatus = 'connected' | 'broken';

/** The error a connection the sandbox broke shows, as a failed check would leave one. */
export const SANDBOX_BROKEN_ERROR = 'Set broken by the sandbox.';

/**
 * The sandbox's automation controls: a paused run resumed now instead of at its time, and a connection's status set as
 * a check would set it, on the caller's own runs and connections only.
 */
export class SandboxAutomationControls {
  constructor(
    private readonly runs: AutomationRunRepository,
    private readonly engine: AutomationEngine,
    private readonly connections: ConnectionRepository,
    private readonly clock: Clock,
  ) {}

  /** Only a paused run resumes; one resumed elsewhere meanwhile is not paused any more. */
  async resumeNow(userId: number, runId: string): Promise<Result<AutomationRun, 'run_not_found' | 'run_not_paused'>> {
    const found = await this.runs.locate(userId, runId);
    if (found === null) return err('run_not_found');
    if (found.run.status !== 'PAUSED') return err('run_not_paused');
    const resumed = await this.engine.resume(found.automationId, runId, { early: true });
    return resumed === null ? err('run_not_paused') : ok(resumed);
  }

  /** `statusOf` is read once the connection is known to be the caller's. */
  async setConnectionStatus(
    userId: number,
    id: number,
    statusOf: () => SandboxConnectionStatus,
  ): Promise<Result<Connection, 'connection_not_found'>> {
    const connection = await this.connections.find(userId, id);
    if (connection === null) return err('connection_not_found');
    const status = statusOf();
    await this.connections.recordCheck(
      connection.id,
      status,
      status === 'broken' ? SANDBOX_BROKEN_ERROR : null,
      this.clock.now(),
    );
    return ok((await this.connections.find(userId, connection.id)) ?? connection);
  }
}
