import { findTemplate, JsonObject, JsonValue, Plan } from '@voiceplane/domain';
import { Clock } from '../ports';
import { Ids } from '../ports';
import { AppliedTemplate, ApplyTemplateStages, lastOutput, testVersion } from './apply-template';
import { AutomationChanges, AutomationRepository, AutomationVersion } from './ports';
import { ApplyRefusal, Outcome, refused } from './template-outcome';
import { webhookUrlOf } from './version-publisher';

export interface UpdateAutomationRequest {
  readonly userId: number;
  readonly plan: Plan;
  readonly automationId: string;
  /** Merged key by key over the current params; a null value removes the param. */
  readonly params: { readonly [key: string]: JsonValue };
  readonly name: string | null;
  readonly confirmSideEffects: boolean;
  readonly test: boolean;
  readonly sample: JsonObject | null;
}

export type UpdateRefusal = ApplyRefusal | { readonly code: 'not_found' };

/** The params a record shows: the live version's, else the newest draft's. */
export function currentVersion(
  versions: readonly AutomationVersion[],
  liveVersionId: string | null,
): AutomationVersion | null {
  return versions.find((v) => v.id === liveVersionId) ?? versions[0] ?? null;
}

/**
 * `PUT /api/user/automate/flows/{id}`: a new version over the merged params,
 * tested like an apply, published when the test passes, a draft when it fails.
 */
export class UpdateAutomation {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly stages: ApplyTemplateStages,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(request: UpdateAutomationRequest): Promise<Outcome<AppliedTemplate, UpdateRefusal>> {
    const { userId } = request;
    const found = await this.automations.find(userId, request.automationId);
    const template = found ? findTemplate(found.templateKey) : null;
    if (found === null || template === null) return refused({ code: 'not_found' });
    const current = currentVersion(await this.automations.listVersions(found.id), found.liveVersionId);

    const merged: Record<string, JsonValue> = { ...(current?.params ?? {}) };
    for (const [key, value] of Object.entries(request.params)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    const checked = await this.stages.checks.check(template, userId, found.assistantId, merged, found.toolId);
    if (!checked.ok) return checked;
    if (found.bindingType === 'assistant_event') {
      const conflict = await this.automations.findConflict(userId, found.assistantId as number, template.key, found.id);
      if (conflict)
        return refused({
          code: 'binding_conflict',
          assistantId: found.assistantId as number,
          templateKey: template.key,
          conflictingAutomationId: conflict.id,
        });
    }
    if (template.sideEffects && request.test && !request.confirmSideEffects)
      return refused({ code: 'side_effects_require_confirmation' });

    const params = checked.value.params as JsonObject;
    const version = await this.automations.addVersion({
      id: this.ids.token('ver_', 22),
      automationId: found.id,
      params,
      definition: template.definition(params, found.assistantId) as unknown as JsonValue,
      restoredFromVersionId: null,
      createdAt: this.clock.now(),
    });
    const named: AutomationChanges = request.name === null ? {} : { name: request.name };
    const automation = { ...found, ...named };
    const webhookUrl = webhookUrlOf(this.publicBaseUrl, automation);

    const run = request.test
      ? await testVersion(this.stages.engine, template, automation, version, checked.value, request.sample)
      : null;
    const response = run ? lastOutput(run) : null;
    const at = this.clock.now();
    const lastTest = run ? { runId: run.id, runStatus: run.status, testedAt: at } : automation.lastTest;
    if (run && run.status === 'FAILED') {
      await this.automations.update(automation.id, { ...named, lastTest }, at);
      return {
        ok: true,
        value: {
          automation: { ...automation, lastTest, updatedAt: at },
          webhookUrl,
          status: 'test_failed',
          run,
          response,
        },
      };
    }
    // An automation that never went live is switched on by its first publish; any other keeps its status.
    const firstPublish = found.liveVersionId === null;
    const changes: AutomationChanges = {
      ...named,
      lastTest,
      ...(firstPublish ? { status: 'enabled', bound: true } : {}),
    };
    const published = await this.stages.publisher.publish(automation, version, {
      testRunId: run?.id ?? null,
      at,
      changes,
      plan: firstPublish ? request.plan : null,
    });
    if (published === 'tool_limit_reached')
      return refused({ code: 'tool_limit_reached', limit: request.plan.max_mid_call_tools });
    return {
      ok: true,
      value: { automation: published, webhookUrl, status: run ? 'active' : 'active_untested', run, response },
    };
  }
}
