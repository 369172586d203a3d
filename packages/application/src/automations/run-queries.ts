import { AutomationRun, err, ok, Result } from '@voiceplane/domain';
import { AutomationRepository, AutomationRunRepository } from './ports';

/** How many runs a list gives when the request names no limit. */
export const DEFAULT_RUNS_LIMIT = 10;

/** One run by its id (null: an id no run can have), or the newest runs. */
export type RunsRequest = { readonly runId: string | null } | { readonly limit?: number };

export type RunsView =
  | { readonly kind: 'run'; readonly run: AutomationRun }
  | { readonly kind: 'list'; readonly runs: readonly AutomationRun[] };

export type RunsRefusal = 'automation_not_found' | 'run_not_found';

/**
 * The runs of one of the account's automations. What the request asks past the automation comes
 * as a function, read only once the automation is known to be the caller's: a missing automation
 * answers before a malformed query does.
 */
export class RunQueries {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly runs: AutomationRunRepository,
  ) {}

  async read(
    userId: number,
    automationId: string,
    requestOf: () => RunsRequest,
  ): Promise<Result<RunsView, RunsRefusal>> {
    const automation = await this.automations.find(userId, automationId);
    if (automation === null) return err('automation_not_found');
    const request = requestOf();
    if ('runId' in request) {
      const run = request.runId === null ? null : await this.runs.find(automation.id, request.runId);
      return run === null ? err('run_not_found') : ok({ kind: 'run', run });
    }
    return ok({ kind: 'list', runs: await this.runs.list(automation.id, request.limit ?? DEFAULT_RUNS_LIMIT) });
  }
}
