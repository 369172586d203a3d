import { AutomationRun, checkRetry, findTemplate } from '@voiceplane/domain';
import { AutomationEngine } from './automation-engine';
import { AutomationRepository, AutomationRunRepository } from './ports';
import { Outcome, refused } from './template-outcome';

export type RetryRefusal =
  | { readonly code: 'not_found' }
  | { readonly code: 'run_not_found' }
  | { readonly code: 'run_not_retryable' }
  | { readonly code: 'no_live_version' }
  | { readonly code: 'side_effects_require_confirmation' };

/**
 * `POST /api/user/automate/flows/{id}/runs/{run_id}/retry`: a failed run again,
 * same input and `is_test`, on the current live version, executed within the request like a test.
 */
export class RetryRun {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly runs: AutomationRunRepository,
    private readonly engine: AutomationEngine,
  ) {}

  async execute(
    userId: number,
    automationId: string,
    runId: string,
    confirmSideEffects: boolean,
  ): Promise<Outcome<AutomationRun, RetryRefusal>> {
    const automation = await this.automations.find(userId, automationId);
    if (automation === null) return refused({ code: 'not_found' });
    const failed = await this.runs.find(automation.id, runId);
    if (failed === null) return refused({ code: 'run_not_found' });
    const retry = checkRetry(failed);
    if (!retry.ok) return refused({ code: retry.error });
    const live = automation.liveVersionId === null ? null : await this.engine.version(automation.liveVersionId);
    if (live === null) return refused({ code: 'no_live_version' });
    if (findTemplate(automation.templateKey)?.sideEffects && !confirmSideEffects)
      return refused({ code: 'side_effects_require_confirmation' });
    // The retry's stored run and the answer made from it commit together.
    const run = await this.engine.start(automation, live, {
      ...retry.value,
      concludes: (stored): Outcome<AutomationRun, RetryRefusal> => ({ ok: true, value: stored }),
    });
    if (run === null) throw new Error(`Retry of ${failed.id} started no run.`);
    return { ok: true, value: run };
  }
}
