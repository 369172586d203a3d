import { AutomationRun, AutomationTemplate, deepMerge, JsonObject, JsonValue, Plan } from '@voiceplane/domain';
import { AssistantRepository } from '../assistants';
import { Clock } from '../ports';
import { UnitOfWork } from '../ports';
import { Ids } from '../ports';
import { AutomationEngine, pinned } from './automation-engine';
import { Automation, AutomationRepository, AutomationToolBinding, AutomationVersion, BindingType } from './ports';
import { TemplateChecks } from './template-checks';
import { CheckedParams, Outcome, refused } from './template-outcome';
import { VersionPublisher, webhookUrlOf } from './version-publisher';

export interface ApplyTemplateRequest {
  readonly userId: number;
  readonly plan: Plan;
  readonly template: AutomationTemplate;
  readonly params: { readonly [key: string]: JsonValue };
  readonly assistantId: number | null;
  readonly name: string | null;
  readonly confirmSideEffects: boolean;
  readonly test: boolean;
  readonly sample: JsonObject | null;
}

export interface AppliedTemplate {
  readonly automation: Automation;
  readonly webhookUrl: string | null;
  readonly status: 'active' | 'active_untested' | 'test_failed';
  readonly run: AutomationRun | null;
  /** Output of the last step that ran (the reply body for a sync webhook). */
  readonly response: JsonValue | null;
}

const WEBHOOK_TOKEN_LENGTH = 32;

/** What applying a template reads and writes: the automations, the assistants, the tool bindings. */
export interface ApplyTemplateStores {
  readonly uow: UnitOfWork;
  readonly automations: AutomationRepository;
  readonly assistants: AssistantRepository;
  readonly tools: AutomationToolBinding;
}

/** The stages of an apply: the checks, publishing the first version, the real test run. */
export interface ApplyTemplateStages {
  readonly checks: TemplateChecks;
  readonly publisher: VersionPublisher;
  readonly engine: AutomationEngine;
}

/** `POST /api/user/automate/templates/{key}`. */
export class ApplyTemplate {
  private readonly uow: UnitOfWork;
  private readonly automations: AutomationRepository;
  private readonly assistants: AssistantRepository;
  private readonly tools: AutomationToolBinding;
  private readonly checks: TemplateChecks;
  private readonly publisher: VersionPublisher;
  private readonly engine: AutomationEngine;

  constructor(
    stores: ApplyTemplateStores,
    stages: ApplyTemplateStages,
    private readonly clock: Clock,
    private readonly ids: Ids,
    private readonly publicBaseUrl: string,
  ) {
    ({ uow: this.uow, automations: this.automations, assistants: this.assistants, tools: this.tools } = stores);
    ({ checks: this.checks, publisher: this.publisher, engine: this.engine } = stages);
  }

  async execute(request: ApplyTemplateRequest): Promise<Outcome<AppliedTemplate>> {
    const { template, userId } = request;
    if (template.requiresAssistant && request.assistantId === null) return refused({ code: 'assistant_required' });
    if (request.assistantId !== null && (await this.assistants.findOwned(userId, request.assistantId)) === null)
      return refused({ code: 'assistant_not_found' });

    const resources = await this.checks.check(template, userId, request.assistantId, request.params);
    if (!resources.ok) return resources;
    const params = resources.value.params;

    const bindingType: BindingType = template.tool && request.assistantId !== null ? 'tool' : template.bindingType;
    if (bindingType === 'assistant_event') {
      const conflict = await this.automations.findConflict(userId, request.assistantId as number, template.key);
      if (conflict) {
        return refused({
          code: 'binding_conflict',
          assistantId: request.assistantId as number,
          templateKey: template.key,
          conflictingAutomationId: conflict.id,
        });
      }
    }
    if (template.sideEffects && request.test && !request.confirmSideEffects)
      return refused({ code: 'side_effects_require_confirmation' });
    if (bindingType === 'tool' && (await this.tools.countTools(userId)) >= request.plan.max_mid_call_tools) {
      return refused({ code: 'tool_limit_reached', limit: request.plan.max_mid_call_tools });
    }

    const now = this.clock.now();
    const automation: Automation = {
      id: this.ids.token('aut_', 22),
      userId,
      name: request.name ?? template.name,
      templateKey: template.key,
      status: 'disabled',
      bindingType,
      assistantId: request.assistantId,
      bound: false,
      webhookToken: template.trigger.kind === 'trigger.webhook' ? this.ids.secretToken('', WEBHOOK_TOKEN_LENGTH) : null,
      toolId: null,
      liveVersionId: null,
      lastTest: null,
      createdAt: now,
      updatedAt: now,
    };
    const definition = template.definition(params, request.assistantId);
    const version: AutomationVersion = {
      id: this.ids.token('ver_', 22),
      automationId: automation.id,
      number: 1,
      state: 'draft',
      params: params as JsonObject,
      definition: definition as unknown as JsonValue,
      restoredFromVersionId: null,
      testRunId: null,
      createdAt: now,
      publishedAt: null,
    };
    await this.automations.create(automation, version);
    const webhookUrl = webhookUrlOf(this.publicBaseUrl, automation);

    const run = request.test
      ? await testVersion(this.engine, template, automation, version, resources.value, request.sample)
      : null;
    const response = run ? lastOutput(run) : null;
    if (run && run.status === 'FAILED') {
      const lastTest = { runId: run.id, runStatus: run.status, testedAt: this.clock.now() };
      const failed: Outcome<AppliedTemplate> = {
        ok: true,
        value: { automation: { ...automation, lastTest }, webhookUrl, status: 'test_failed', run, response },
      };
      // The commit that records the failed test is the one the caller is answered from.
      return this.uow.transaction(
        async () => {
          await this.automations.update(automation.id, { lastTest }, this.clock.now());
          return failed;
        },
        { concludes: true },
      );
    }

    const publishedAt = this.clock.now();
    const lastTest = run ? { runId: run.id, runStatus: run.status, testedAt: publishedAt } : null;
    const applied = (published: Automation): Outcome<AppliedTemplate> => ({
      ok: true,
      value: { automation: published, webhookUrl, status: run ? 'active' : 'active_untested', run, response },
    });
    const published = await this.publisher.publish(automation, version, {
      testRunId: run?.id ?? null,
      at: publishedAt,
      changes: { status: 'enabled', bound: true, lastTest },
      plan: request.plan,
      concludes: applied,
    });
    if (published === 'tool_limit_reached')
      return refused({ code: 'tool_limit_reached', limit: request.plan.max_mid_call_tools });
    return applied(published);
  }
}

/** The test run of a new version: the template's sample input with the real params, the caller's `sample` merged over it. */
export function testVersion(
  engine: AutomationEngine,
  template: AutomationTemplate,
  automation: Automation,
  version: AutomationVersion,
  checked: CheckedParams,
  sample: JsonObject | null,
): Promise<AutomationRun | null> {
  const input = deepMerge(
    template.sampleInput(checked.params, { assistantId: automation.assistantId, firstKeyValue: checked.firstKeyValue }),
    sample ?? {},
  );
  return engine.start(automation, pinned(version), { trigger: 'test', isTest: true, input });
}

/** Output of the last step that ran (the `respond` body of a sync webhook). */
export function lastOutput(run: AutomationRun): JsonValue | null {
  const ran = run.steps
    .slice(1)
    .filter((s) => s.output !== undefined && s.status !== 'PENDING' && s.status !== 'SKIPPED');
  return ran.length > 0 ? (ran[ran.length - 1].output as JsonValue) : null;
}
